#pragma once
// The generator's command line.
//
//   bench-loadgen http     --url URL [--mode stateful-json|stateful-sse|stateless] [--peer mcp|fixed]
//                          [--connections N] [LIMITS] [--server-pid PID] [--cpu-pid NAME=PID]...
//   bench-loadgen sessions --url URL --max-count N [--connections N] [--duration S] --server-pid PID
//   bench-loadgen stdio    [--peer mcp|echo] [--window N] [--era legacy|modern] [LIMITS] -- COMMAND [ARGS...]
//   bench-loadgen startup  [--peer mcp|echo] -- COMMAND [ARGS...]
//   bench-loadgen listen   --url URL --server-pid PID --connections STREAMS [--max-count CHANGES] [--duration S]
//   bench-loadgen soak     --url URL --server-pid PID --rate R [--connections N] [--duration S] [--sample-every S]
//
//   LIMITS: [--warmup S] [--duration S] [--max-count N] [--grace S]
//
// --mode (http): stateful-json, stateful-sse, stateless; 2026-07-28:
// modern-json, modern-sse, discover, input-required (http_mode.hpp).
// --era (stdio): legacy, initialize first (the default), or modern, the
// 2026-07-28 era: every request with its envelope, no initialize.
// listen: a stream per connection; --max-count changes (toggle_bonus calls,
// at most 1,000; 0: the streams alone); --duration bounds the whole run.
// --cpu-pid (http, sessions; repeatable): the CPU time of another process over
// the measured window, reported per reply as cpu_us_each_NAME (the processes
// given one NAME are summed): the nodes, HAProxy and Redis of a cluster.
//
// Prints one line of JSON (run_result.hpp); exits 0 when the run completed,
// whatever its error count (the driver judges that), 2 on a usage error.

#include "load_run.hpp"
#include "reply_check.hpp"

#include <sys/types.h>

#include <string>
#include <vector>

namespace loadgen {

struct options {
  std::string scenario;  ///< http, sessions, listen, stdio, startup or soak
  std::string url;
  std::string mode = "stateful-json";
  peer_kind peer = peer_kind::mcp;
  int connections = 1;
  std::size_t window = 1;  ///< stdio: requests in flight
  bool modern_era = false;  ///< stdio: 2026-07-28 requests (--era modern)
  load_limits limits;
  pid_t server_pid = 0;
  std::vector<std::pair<std::string, pid_t>> cpu_pids;  ///< --cpu-pid NAME=PID
  std::vector<std::string> command;  ///< stdio and startup: the server to spawn
  double rate = 0;  ///< soak: echo calls per second, over all --connections
  std::chrono::milliseconds sample_every{5000};  ///< soak: how often RSS and fds are read
};

/// Throws std::invalid_argument with a message for the user.
options parse_options(int argc, char** argv);

}  // namespace loadgen
