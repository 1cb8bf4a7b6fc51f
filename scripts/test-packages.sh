#!/usr/bin/env bash
# The ways into Caduceus that compile the library again, beside CI (which
# runs find_package and pkg-config against its static build:
# integration.find_package_consumer). Each builds and runs the consumer
# project's client and server (test/consumer/project). docs/packaging.md
# records the last run.
#   1. A shared build (BUILD_SHARED_LIBS=ON, RelWithDebInfo): libcaduceus.so
#      exports only namespace mcp and its SONAME carries the major version;
#      find_package (with COMPONENTS) and pkg-config against its install.
#   2. Its Debian packages (CPack): installed with apt, a consumer built in a
#      clean folder against the installed files only (find_package and
#      pkg-config), the installed tool run; then removed again.
#   3. add_subdirectory and FetchContent (from this repository's HEAD, a
#      local path): the core alone, compiled inside the consumer's build.
# Runs as root (or with sudo) on Debian 12: it installs packages. 7 minutes
# on 2 cores once the shared build is compiled (about 5 more for that, the
# library in batches); docs/packaging.md records the last run.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$root/build-packages
jobs=$(nproc)
step() { echo "== test-packages.sh at ${SECONDS} s: $*"; }
sudo=""
[[ $(id -u) -eq 0 ]] || sudo="sudo"
consumer() {  # consumer WORK_DIR -DMODE=... [more -D arguments]
  local work=$1
  shift
  cmake -DWORK_DIR="$work" -DSOURCE_DIR="$root/test/consumer/project" -DCXX=g++ "$@" \
    -P "$root/test/consumer/run_consumer_test.cmake"
}

step "setup"
scripts/setup.sh
missing=()
for p in dpkg-dev file; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
mkdir -p "$out"

step "shared build"
cmake -S . -B "$out/shared" -G Ninja -DBUILD_SHARED_LIBS=ON -DCMAKE_INSTALL_PREFIX=/usr \
  -DCADUCEUS_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$out/shared" -j "$jobs"

step "exported symbols and SONAME"
# The major version CMake built with (it reads it from <mcp/version.hpp>).
major=$(sed -n 's/^CMAKE_PROJECT_VERSION_MAJOR:STATIC=//p' "$out/shared/CMakeCache.txt")
# Each library exports its own namespace alone: ours mcp, libcaduceus_asio
# Asio's compiled part (src/CMakeLists.txt says why it is a library).
for library in "$out"/shared/src/libcaduceus.so "$out"/shared/src/libcaduceus_skills.so \
               "$out"/shared/src/cluster/libcaduceus_cluster.so "$out"/shared/src/libcaduceus_asio.so; do
  [[ -f $library ]] || continue
  namespace=mcp
  [[ $library == *_asio.so ]] && namespace=boost::asio
  soname=$(readelf -d "$library" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
  [[ $soname == "$(basename "$library").$major" ]] || { echo "$library: SONAME $soname" >&2; exit 1; }
  foreign=$(nm -D --defined-only "$library" | c++filt | awk '{ $1 = ""; $2 = ""; sub(/^  /, ""); print }' |
    grep -v -E "^((typeinfo |typeinfo name |vtable |VTT |guard variable )?(for )?$namespace::)" |
    grep -v -E '^(CADUCEUS_[0-9]|_init$|_fini$)' || true)
  if [[ -n $foreign ]]; then
    echo "$library exports symbols outside namespace $namespace:" >&2
    echo "$foreign" | head -20 >&2
    exit 1
  fi
  echo "$(basename "$library"): SONAME $soname, $(nm -D --defined-only "$library" | wc -l) symbols, all of namespace $namespace"
done

step "find_package and pkg-config against the shared build's install"
consumer "$out/shared-consumer" -DBUILD_DIR="$out/shared"

step "Debian packages"
rm -f "$out"/shared/*.deb
(cd "$out/shared" && cpack -G DEB >/dev/null)
ls "$out"/shared/*.deb
for deb in "$out"/shared/*.deb; do
  echo "$(dpkg-deb -f "$deb" Package): Depends: $(dpkg-deb -f "$deb" Depends)"
done
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "$out"/shared/*.deb >/dev/null
trap 'DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -q libcaduceus-dev caduceus-tools "libcaduceus[0-9]*" >/dev/null' EXIT
consumer "$out/deb-consumer" -DPREFIX=/usr
caduceus --help >/dev/null
DEBIAN_FRONTEND=noninteractive $sudo apt-get remove -y -q libcaduceus-dev caduceus-tools "libcaduceus[0-9]*" >/dev/null
trap - EXIT

step "add_subdirectory"
consumer "$out/add-subdirectory" -DMODE=add_subdirectory -DCADUCEUS_SOURCE="$root" \
  -DCONSUMER_CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g0 -DCADUCEUS_UNITY_LIBRARY=ON"

step "FetchContent from a local path"
consumer "$out/fetchcontent" -DMODE=FetchContent -DCADUCEUS_SOURCE="$root" -DCADUCEUS_GIT_TAG="$(git rev-parse HEAD)" \
  -DCONSUMER_CMAKE_ARGS="-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-g0 -DCADUCEUS_UNITY_LIBRARY=ON"

step "done"
