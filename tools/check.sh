#!/usr/bin/env bash
# Sets up, builds and runs Adjoint's whole test suite (lit + FileCheck IR
# tests, end-to-end programs, GoogleTest unit tests). Ends with the line
# "tests: N passed, N failed" and a non-zero status when anything failed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ADJOINT_BUILD_DIR:-$root/build}

bash "$root/cmake/setup.sh"
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
fi
cmake --build "$build"

lit=$(grep -m1 '^ADJOINT_LIT:' "$build/CMakeCache.txt" | cut -d= -f2-)
log="$build/test-results.log"
status=0
python3 "$lit" -sv --time-tests "$build/test" "$build/test/unit" "$@" \
  2>&1 | tee "$log" || status=$?

# lit's summary lines look like "  Passed: 12 (100.00%)", with the labels
# padded ("  Passed  : 12") when a longer label is printed too.
count() {
  sed -nE "s/^  $1 *: +([0-9]+).*/\1/p" "$log" | awk '{ n += $1 } END { print n + 0 }'
}
passed=$(( $(count Passed) + $(count 'Expectedly Failed') ))
failed=$(( $(count Failed) + $(count 'Unexpectedly Passed') + $(count Unresolved) + $(count 'Timed Out') ))
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
