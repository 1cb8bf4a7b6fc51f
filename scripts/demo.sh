#!/usr/bin/env bash
# The main job: builds the SDK and the `caduceus` tool, starts the demo
# server over HTTP (127.0.0.1, a free port, in-memory sessions), and talks to
# it with the caduceus client: server info, its tools, two calls. Then one
# call over stdio, the client spawning the server itself.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh --target caduceus >/dev/null
caduceus=build/bin/caduceus

server_out=$(mktemp)
"$caduceus" serve-demo --http 127.0.0.1:0 >"$server_out" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -f "$server_out"' EXIT
for _ in $(seq 100); do
  url=$(head -n 1 "$server_out")
  [[ -n "$url" ]] && break
  sleep 0.05
done
[[ -n "$url" ]] || { echo "demo: the server did not start" >&2; exit 1; }

run() {
  local shown="$ caduceus" arg
  for arg in "$@"; do
    if [[ "$arg" =~ [[:space:]\"{}] ]]; then shown+=" '$arg'"; else shown+=" $arg"; fi
  done
  echo "$shown"
  "$caduceus" "$@"
  echo
}
echo "demo server listening on $url"
echo
run --url "$url" info
run --url "$url" tools
run --url "$url" call echo '{"text": "hello, MCP"}'
run --url "$url" call add '{"a": 2, "b": 3}'
run --stdio "$caduceus serve-demo" call echo '{"text": "hello over stdio"}'
