#!/usr/bin/env bash
# Installs the Debian 12 packages that building (and, with --tests, testing)
# Caduceus needs, when they are missing. Safe to run again.
set -euo pipefail

packages=(g++ cmake ninja-build ccache libboost1.81-dev libboost-json1.81-dev libboost-url1.81-dev libssl-dev
          pkg-config libcjose-dev libjansson-dev libhiredis-dev libyaml-cpp-dev)
if [[ "${1:-}" == "--tests" ]]; then
  packages+=(libgtest-dev libgmock-dev openssl libbenchmark-dev python3 redis-server haproxy prometheus)
  command -v node >/dev/null 2>&1 || packages+=(nodejs)
  command -v npm >/dev/null 2>&1 || packages+=(npm)
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
