#!/usr/bin/env bash
# Configures and builds the AddressSanitizer + UBSan build into build-asan/:
# clang, Debug (with _GLIBCXX_ASSERTIONS, as every Debug build), and the fuzz
# targets (fuzz/, CADUCEUS_BUILD_FUZZERS), so that they and the unit and
# integration tests share one build. The tests compile at -O0 with line
# tables only (-gline-tables-only: enough for a sanitizer's stack trace),
# four times faster than -O1 -g; fuzz/CMakeLists.txt compiles the library
# and the fuzz targets at -O1 with libFuzzer's coverage instrumentation.
# Arguments go to `cmake --build`.
set -euo pipefail
cd "$(dirname "$0")/.."
# -fno-sanitize=function: clang 14 cannot assemble coroutines with it
# ("Cannot represent a difference across sections").
sanitizers="-fsanitize=address,undefined -fno-sanitize=function -fno-sanitize-recover=undefined"
cmake -S . -B build-asan -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS=-fno-omit-frame-pointer $sanitizers" -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  "-DCMAKE_EXE_LINKER_FLAGS=$sanitizers" -DCADUCEUS_BUILD_FUZZERS=ON -DCADUCEUS_UNITY_LIBRARY=ON >/dev/null
cmake --build build-asan "$@"
