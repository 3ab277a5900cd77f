#!/usr/bin/env bash
# Installs, from Debian's packages, whatever Adjoint needs to build and test
# that is not already on this machine. Idempotent; silent when all is present.
set -euo pipefail

packages=(
  clang-19 llvm-19-dev llvm-19-tools lld-19 flang-19 libclang-rt-19-dev
  cmake ninja-build libgtest-dev python3 python3-matplotlib zlib1g-dev libzstd-dev libedit-dev
  libxml2-dev libffi-dev libncurses-dev
  make pkgconf  # the examples' Makefile and pkg-config (test/Integration)
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "adjoint setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
