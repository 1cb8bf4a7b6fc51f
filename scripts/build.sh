#!/usr/bin/env bash
# Configures and builds Caduceus into build/ (or $CADUCEUS_BUILD_DIR).
# Arguments are passed to `cmake --build` (e.g. --target counter-server).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${CADUCEUS_BUILD_DIR:-build}"
cmake -S . -B "$build_dir" -G Ninja ${CADUCEUS_CMAKE_ARGS:-} >/dev/null
cmake --build "$build_dir" "$@"
