#!/usr/bin/env bash
# Configures and builds the AddressSanitizer + UBSan build into build-asan/:
# clang 19 with libc++ 19, the standard library of macOS (Debian's clang-19
# and libc++-19-dev), so that CI proves the code against both standard
# libraries; Debug (with the standard libraries' own checks, as every Debug
# build), and the fuzz targets (fuzz/, CADUCEUS_BUILD_FUZZERS), so that they
# and the unit and integration tests share one build. Boost.JSON, Boost.URL
# and GoogleTest are compiled here from their headers and sources: Debian's
# are built for libstdc++. So are yaml-cpp and cpp-httplib, so the skills
# part and the cpp-httplib adapter are off here (docs/platforms.md). The
# tests compile at -O0 with line tables only (-gline-tables-only: enough for
# a sanitizer's stack trace), four times faster than -O1 -g;
# fuzz/CMakeLists.txt compiles the library and the fuzz targets at -O1 with
# libFuzzer's coverage instrumentation. Arguments go to `cmake --build`.
set -euo pipefail
cd "$(dirname "$0")/.."
sanitizers="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -S . -B build-asan -G Ninja -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_BUILD_TYPE=Debug \
  "-DCMAKE_CXX_FLAGS=-stdlib=libc++ -fno-omit-frame-pointer $sanitizers" -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only \
  "-DCMAKE_EXE_LINKER_FLAGS=-stdlib=libc++ $sanitizers" -DCADUCEUS_BOOST_FROM_HEADERS=ON \
  -DCADUCEUS_GTEST_SOURCE_DIR=/usr/src/googletest -DCADUCEUS_BUILD_BENCHMARKS=OFF \
  -DCADUCEUS_BUILD_FUZZERS=ON -DCADUCEUS_UNITY_LIBRARY=ON >/dev/null
cmake --build build-asan "$@"
