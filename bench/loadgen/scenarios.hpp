#pragma once
// The things the generator can do; each runs to completion (bounded in
// count and time) and returns what it measured.

#include "options.hpp"
#include "run_result.hpp"

namespace loadgen {

/// tools/call echo over Streamable HTTP, one keep-alive connection per
/// worker (and one MCP session on each in the stateful modes).
run_result run_http_load(const options& o);
/// Opens --max-count sessions (initialize + initialized) on --connections
/// connections: sessions per second, and the server's resident memory per
/// idle session.
run_result run_sessions(const options& o);
/// Spawns the server and pipelines tools/call echo over its stdin and stdout,
/// --window requests in flight (1: one at a time).
run_result run_stdio_load(const options& o);
/// Holds --connections subscriptions/listen streams (2026-07-28) open: the
/// server's memory per stream; then the fan-out of --max-count tool list
/// changes to every listener (listen_load.cpp).
run_result run_listen(const options& o);
/// Spawns the server and times until its reply to initialize.
run_result run_startup(const options& o);
/// The soak run (soak_load.cpp): its own JSON line.
std::string run_soak(const options& o);

}  // namespace loadgen
