#!/bin/sh
# conformance_client.mjs runs the client command through this script, which
# records how the client ended: a suite run of many scenarios at once prints
# that without naming the scenario.
#
#   client-exit.sh STATUS_DIR COMMAND [ARGS...]
#
# runs COMMAND ARGS (stdin, stdout and stderr as given) and writes
# STATUS_DIR/$MCP_CONFORMANCE_SCENARIO.exit: its exit status (128+N when
# signal N ended it), after "timeout " when the suite stopped it. The suite
# stops a client that outlasts its --timeout with SIGTERM to this shell,
# which passes it on and waits for the client to end.
status="$1/$MCP_CONFORMANCE_SCENARIO.exit"
shift
mkdir -p "$(dirname "$status")" || exit 125

timeout=
pid=
trap 'timeout="timeout "; [ -z "$pid" ] || kill -TERM "$pid" 2>/dev/null' TERM
"$@" <&0 &
pid=$!
[ -z "$timeout" ] || kill -TERM "$pid" 2>/dev/null
# wait returns early (> 128) when the trap ran: wait again while the client
# lives (2>/dev/null: no "Terminated" from the shell in the client's stderr)
while wait "$pid" 2>/dev/null; rc=$?; [ "$rc" -gt 128 ] && kill -0 "$pid" 2>/dev/null; do :; done
echo "$timeout$rc" >"$status"
exit "$rc"
