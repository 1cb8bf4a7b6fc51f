#!/usr/bin/env bash
# The main job: builds the SDK, then runs counter-client, which spawns
# counter-server over stdio, negotiates the protocol, lists the tools and
# calls one.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh --target counter-server counter-client >/dev/null
exec build/bin/counter-client
