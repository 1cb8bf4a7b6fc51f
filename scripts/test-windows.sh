#!/usr/bin/env bash
# Builds Caduceus for 64-bit Windows with MinGW-w64 on this Debian 12 machine
# and runs it under wine: the unit tests, then end to end our client spawning
# a server over stdio and calling a tool, and our client calling a server
# over Streamable HTTP. Outside CI (about 35 minutes on 2 cores from a bare
# machine, most of it the library); docs/platforms.md records its last run.
#
# Dependencies for Windows are built from Debian's source packages into
# build-windows/prefix: OpenSSL (the only compiled one the core needs).
# Boost is used from the host's headers (Boost.JSON and Boost.URL compiled
# into the library, CADUCEUS_BOOST_FROM_HEADERS), through a folder that holds
# nothing else: the host's /usr/include must never be on a Windows include
# path. GoogleTest is built from /usr/src/googletest. The optional parts
# (skills, cluster, the cpp-httplib and CivetWeb adapters) are off: Debian
# has no Windows builds of yaml-cpp, hiredis, cpp-httplib or CivetWeb.
#
# What wine cannot show (docs/platforms.md): MSVC, real consoles (Ctrl
# events), NTFS ACLs as Windows enforces them, Windows' own pipe and socket
# timing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=build-windows
prefix=$root/$out/prefix
jobs=$(nproc)
step() { echo "== test-windows.sh at ${SECONDS} s: $*"; }

step "packages"
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
packages=(g++-mingw-w64-x86-64-posix wine64 dpkg-dev cmake ninja-build libboost1.81-dev libgtest-dev perl make)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

mkdir -p "$out/sources" "$prefix/include" "$prefix/lib/cmake/Boost-1.81.0"

step "OpenSSL for Windows, from Debian's source package"
if [[ ! -f $prefix/lib64/libcrypto.a && ! -f $prefix/lib/libcrypto.a ]]; then
  if ! apt-get source --print-uris openssl >/dev/null 2>&1; then
    # Source packages come from deb-src entries; Debian 12's image has none.
    sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
      $sudo tee /etc/apt/sources.list.d/caduceus-deb-src.sources >/dev/null
    $sudo apt-get update -q
  fi
  # The newest version whose files the mirror serves (a security update's
  # can lag behind its index); its upstream tarball, without Debian's patches.
  (cd "$out/sources" &&
    for version in $(apt-cache showsrc openssl | sed -n 's/^Version: //p' | sort -V -r); do
      apt-get source --download-only -q "openssl=$version" 2>/dev/null && break
    done &&
    rm -rf openssl && mkdir openssl &&
    tar -xf "openssl_${version%%-*}.orig.tar.gz" -C openssl --strip-components=1)
  (cd "$out/sources/openssl" &&
    ./Configure mingw64 no-shared no-tests --cross-compile-prefix=x86_64-w64-mingw32- --prefix="$prefix" \
      --libdir=lib >/dev/null &&
    make -s -j"$jobs" build_libs >/dev/null && make -s install_dev >/dev/null)
fi

step "Boost headers for Windows"
ln -sfn /usr/include/boost "$prefix/include/boost"
cat > "$prefix/lib/cmake/Boost-1.81.0/BoostConfig.cmake" <<'CONFIG'
# Boost's headers only (scripts/test-windows.sh): the host's, through the
# prefix's include folder.
if(NOT TARGET Boost::headers)
  add_library(Boost::headers INTERFACE IMPORTED)
  set_target_properties(Boost::headers PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_LIST_DIR}/../../../include")
endif()
set(Boost_FOUND TRUE)
CONFIG
cat > "$prefix/lib/cmake/Boost-1.81.0/BoostConfigVersion.cmake" <<'CONFIG'
set(PACKAGE_VERSION 1.81.0)
set(PACKAGE_VERSION_COMPATIBLE TRUE)
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION)
  set(PACKAGE_VERSION_COMPATIBLE FALSE)
endif()
CONFIG

step "configure"
export CADUCEUS_WINDOWS_PREFIX=$prefix
cmake -S . -B "$out/build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$root/cmake/windows/mingw-toolchain.cmake" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O1" -DOPENSSL_ROOT_DIR="$prefix" \
  -DCADUCEUS_BOOST_FROM_HEADERS=ON -DCADUCEUS_GTEST_SOURCE_DIR=/usr/src/googletest \
  -DCADUCEUS_BUILD_BENCHMARKS=OFF -DCADUCEUS_UNITY_LIBRARY=ON -DCADUCEUS_WITH_SKILLS=OFF -DCADUCEUS_WITH_CLUSTER=OFF \
  -DCADUCEUS_WITH_HTTPLIB=OFF -DCADUCEUS_WITH_CIVETWEB=OFF >/dev/null

step "build"
cmake --build "$out/build" --target unit_tests counter-server counter-client everything-server caduceus

step "unit tests under wine"
export WINEDEBUG=-all WINEPREFIX=$root/$out/wine
# Debian's wine64 package keeps its programs in /usr/lib/wine.
export PATH=$PATH:/usr/lib/wine
wineserver -p 2>/dev/null || true  # one wine server for every run below
bin=$out/build/bin
wine64 "$bin/tests/unit_tests.exe" --gtest_brief=1 | tail -n 20

step "end to end under wine: stdio"
# counter-client spawns counter-server over stdio and calls its tools.
wine64 "$bin/counter-client.exe" | tee "$out/counter-client.log"
grep -q "Counter value: 2" "$out/counter-client.log"
# The caduceus tool starts the everything server over stdio and calls echo.
wine64 "$bin/caduceus.exe" --stdio "$bin/everything-server.exe --stdio" call echo '{"text":"over stdio"}' |
  tee "$out/stdio-call.log"
grep -q "over stdio" "$out/stdio-call.log"

step "end to end under wine: Streamable HTTP"
# The server's first line is its endpoint (port 0: one the system picks).
coproc server { wine64 "$bin/everything-server.exe" --http 127.0.0.1:0; }
trap 'kill "$server_PID" 2>/dev/null || true; wineserver -k 2>/dev/null || true' EXIT
read -r -t 60 url <&"${server[0]}"
url=${url%$'\r'}  # a Windows program's text-mode stdout ends its lines with CR LF
echo "server: $url"
wine64 "$bin/caduceus.exe" --url "$url" call echo '{"text":"over HTTP"}' | tee "$out/http-call.log"
grep -q "over HTTP" "$out/http-call.log"
step "done"
