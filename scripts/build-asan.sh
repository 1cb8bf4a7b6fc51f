#!/usr/bin/env bash
# Configures and builds the AddressSanitizer + UBSan build into build-asan/:
# clang, Debug at -O1 (with _GLIBCXX_ASSERTIONS, as every Debug build), and
# libFuzzer's coverage instrumentation (-fsanitize=fuzzer-no-link), so that
# the fuzz targets (fuzz/, CADUCEUS_BUILD_FUZZERS) and the unit and
# integration tests share one build. Arguments go to `cmake --build`.
set -euo pipefail
cd "$(dirname "$0")/.."
# -fno-sanitize=function: clang 14 cannot assemble coroutines with it
# ("Cannot represent a difference across sections").
sanitizers="-fsanitize=address,undefined -fno-sanitize=function -fno-sanitize-recover=undefined"
cmake -S . -B build-asan -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS=-O1 -fno-omit-frame-pointer $sanitizers -fsanitize=fuzzer-no-link" \
  "-DCMAKE_EXE_LINKER_FLAGS=$sanitizers" -DCADUCEUS_BUILD_FUZZERS=ON >/dev/null
cmake --build build-asan "$@"
