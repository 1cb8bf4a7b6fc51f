#pragma once
// The command line of bench-client: MCP clients (ours) calling `tools/call
// echo`, measured as the load generator measures servers (bench/README.md).
//
//   bench-client stdio [--window N] [--legacy] [LIMITS] -- COMMAND [ARGS...]
//   bench-client http  --url URL [--window N] [--pool N] [--legacy] [--server-pid PID] [LIMITS]
//
//   LIMITS: [--warmup S] [--duration S] [--max-count N] [--grace S]
//
// stdio spawns COMMAND as the server (through mcp::spawn_process); http
// connects to a running server (mcp::connect_http), with --pool N through an
// mcp::client_pool of N connections. --window N calls are kept in flight.
// --legacy offers only the legacy versions (initialize, a session), as the
// TypeScript SDK 1.32.2 client does; by default the client probes for 2026-07-28.
//
// Prints one line of JSON: the load generator's fields (loadgen/run_result.hpp)
// with the client's own CPU as client_cpu_us_each and client_busy, and the
// protocol version the client negotiated as protocol. Exits 0 when the run
// completed, whatever its error count (the driver judges that), 1 when the
// client could not connect, 2 on a usage error.

#include "../loadgen/load_run.hpp"

#include <sys/types.h>

#include <cstddef>
#include <string>
#include <vector>

namespace bench_client {

struct options {
  std::string transport;  ///< stdio or http
  std::string url;
  std::size_t window = 1;  ///< calls in flight
  std::size_t pool = 0;    ///< http: connections of a client_pool (0: one client, no pool)
  bool legacy = false;     ///< offer only the legacy protocol versions
  loadgen::load_limits limits;
  pid_t server_pid = 0;
  std::vector<std::string> command;  ///< stdio: the server to spawn
};

/// Throws std::invalid_argument with a message for the user.
options parse_options(int argc, char** argv);

}  // namespace bench_client
