#!/usr/bin/env bash
# Installs the Debian 12 packages that building (and, with --tests, testing;
# with --fuzz, fuzzing) Caduceus needs, when they are missing. Safe to run again.
set -euo pipefail

packages=(g++ cmake ninja-build ccache libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libssl-dev
          pkg-config libhiredis-dev libyaml-cpp-dev libcpp-httplib-dev libcivetweb-dev)
# clang and its runtimes (libFuzzer, the sanitizers): the fuzz targets and the
# AddressSanitizer build of the tests (scripts/build-asan.sh).
fuzz_packages=(clang-19 libc++-19-dev libc++abi-19-dev libclang-rt-19-dev python3)
if [[ "${1:-}" == "--tests" ]]; then
  packages+=(libgtest-dev libgmock-dev openssl libbenchmark-dev python3 redis-server haproxy prometheus doxygen "${fuzz_packages[@]}")
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
elif [[ "${1:-}" == "--fuzz" ]]; then
  packages+=("${fuzz_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >&2
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
