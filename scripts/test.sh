#!/usr/bin/env bash
# Every test: unit, integration (real child processes, an installed-package
# consumer) and interop (the official TypeScript SDK and everything server,
# pinned in test/interop/package.json), and a smoke run of the benchmarks
# (bench/; their TypeScript reference server is pinned in bench/ts/). Then
# the unit and integration tests again under AddressSanitizer and UBSan,
# built with clang 19 and libc++ (the standard library of macOS: the code is
# proven against both), which catch memory errors that a passing test can hide, with a
# short run of every fuzz target (fuzz/) in the same build; and under
# ThreadSanitizer (g++) with the test servers on 4 threads, which catches
# data races.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step says when it starts, in seconds since this script did (CI's
# budget is an hour on two cores: the log shows where it goes).
step() { echo "== test.sh at ${SECONDS} s: $*"; }
# Runs a build and fails on any compiler warning: every build here is one of
# the compilers docs/platforms.md promises to compile without them.
without_warnings() {
  local log
  log=$(mktemp)
  "$@" 2>&1 | tee "$log"
  if grep -q "warning:" "$log"; then
    rm -f "$log"
    echo "test.sh: the build above has compiler warnings" >&2
    return 1
  fi
  rm -f "$log"
}

step "setup"
scripts/setup.sh --tests
(cd test/interop && npm ci --no-audit --no-fund --loglevel=error)
(cd bench/ts && npm ci --no-audit --no-fund --loglevel=error)
(cd bench/gateways && npm ci --no-audit --no-fund --loglevel=error)

step "API reference (no Doxygen warning)"
CADUCEUS_REFERENCE_DIR=$PWD/build/reference scripts/reference.sh

step "release build"
without_warnings scripts/build.sh
step "release tests"
# A test labelled `long` runs beside CI (none is today: test/interop/README.md).
ctest --test-dir build --output-on-failure --timeout 300 -j 2 -LE long

# The test binaries the sanitizer builds run (their dependencies are the
# programs the integration tests start). ThreadSanitizer runs only those
# whose servers and clients run on several threads: the unit tests run on
# one (the one that counts metrics from several threads is matched by the
# Prometheus tests, whose servers update them from four), and building them
# again would cost CI three minutes.
sanitized_tests=(unit_tests integration_tests json_tests uri_template_tests websocket_tests prometheus_tests)
threaded_tests=(integration_tests websocket_tests prometheus_tests)

step "ASan+UBSan build (clang 19, libc++)"
without_warnings scripts/build-asan.sh --target "${sanitized_tests[@]}"
step "ASan+UBSan tests"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure --timeout 300 -j 2 -L 'unit|integration' -E find_package
step "fuzz targets"
scripts/fuzz.sh --seconds "${CADUCEUS_FUZZ_SECONDS:-20}"

step "TSan build"
# ThreadSanitizer. test/tsan.supp lists the reports proven false, each with
# its reason. -g1: line tables, enough for its stack traces, builds faster.
# The programs the tests start are the release build's (test/CMakeLists.txt):
# the races it looks for are in the servers and clients of the test process.
# (No comment may sit inside the command below: it would end it at the `\`.)
CADUCEUS_BUILD_DIR=build-tsan \
CADUCEUS_CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS=-fsanitize=thread -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread -DCADUCEUS_TEST_PROGRAMS_DIR=$PWD/build/bin -DCADUCEUS_UNITY_LIBRARY=ON" \
  without_warnings scripts/build.sh --target "${threaded_tests[@]}"
step "TSan tests"
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/test/tsan.supp" CADUCEUS_TEST_SERVER_THREADS=4 \
  ctest --test-dir build-tsan --output-on-failure --timeout 600 -j 2 -L 'unit|integration' -E find_package
step "done"
