#!/usr/bin/env bash
# Compiles everything (the library and its parts, the tests, the examples,
# the tool, the benchmarks) with every C++ compiler Debian 12 offers, each
# warning an error: g++ 12, clang 14, clang 19 and clang 22 (with libstdc++;
# clang 19 with libc++ is CI's AddressSanitizer build, which fails on a
# warning too). Outside CI: about 25 minutes per compiler on 2 cores
# (unoptimized, in batches of files); docs/platforms.md records its last run.
# Arguments: the compilers to check (default: all four), e.g. `clang++-22`.
set -euo pipefail
cd "$(dirname "$0")/.."
compilers=("$@")
[[ ${#compilers[@]} -gt 0 ]] || compilers=(g++ clang++-14 clang++-19 clang++-22)
scripts/setup.sh --tests
for cxx in "${compilers[@]}"; do
  command -v "$cxx" >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "$(sed 's/^clang++-/clang-/; s/^g++$/g++/' <<<"$cxx")"
  dir=build-warnings/$cxx
  echo "== $cxx"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g0 \
    -DCMAKE_COMPILE_WARNING_AS_ERROR=ON -DCADUCEUS_UNITY_LIBRARY=ON >/dev/null
  cmake --build "$dir"
done
echo "no warnings from: ${compilers[*]}"
