#!/usr/bin/env bash
# The README's first command: installs what is missing (cmake/setup.sh),
# configures and builds Adjoint, then compiles examples/scalar.c with the
# plugin and runs it, printing a function's value, its gradient from Adjoint
# and a finite-difference gradient for comparison.
#
# Works from any directory. The build goes to build/ at the repository root,
# or to $ADJOINT_BUILD_DIR when that is set (as for tools/check.sh).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ADJOINT_BUILD_DIR:-$root/build}

bash "$root/cmake/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  echo "quickstart: configuring $build" >&2
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
fi
echo "quickstart: building the plugin" >&2
cmake --build "$build"
echo "quickstart: compiling examples/scalar.c with the plugin" >&2
cmake --build "$build" --target example

echo
"$build/examples/scalar"
echo
echo "The plugin is $build/lib/Adjoint.so; use it with"
echo "  clang-19 -O2 -fpass-plugin=$build/lib/Adjoint.so prog.c -lm"
