#pragma once
// What the soak run does to the server, each as a worker that repeats it
// until the run stops: tools/call echo at a steady pace on a keep-alive
// session (most of the load), and beside it session churn, cancellations,
// dropped and resumed SSE streams, slow clients and bad input. Each checks
// what it gets and tells the tally.

#include "http_connection.hpp"
#include "messages.hpp"
#include "soak_tally.hpp"

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <functional>
#include <vector>

namespace loadgen {

struct soak_context {
  asio::any_io_executor ex;
  http_target target;
  soak_tally tally;
  request_ids ids;
  bool stopping = false;
  int workers = 0;                           ///< running; the last one to end calls on_idle
  std::function<void()> on_idle;
  std::vector<http_connection*> keep_alive;  ///< the echo workers' connections, closed if the end hangs
};

enum class chaos_kind {
  churn,        ///< open a session, call, DELETE it, then find it gone (404)
  cancel,       ///< a long call on an SSE stream, cancelled by notifications/cancelled
  resume,       ///< an SSE stream dropped after its first event, resumed with Last-Event-ID
  slow_writer,  ///< a request written in pieces, 100 ms apart
  slow_reader,  ///< an SSE stream read a little every 50 ms
  bad_input,    ///< malformed JSON, an unknown method, an oversized body, an unknown session, in turn
};
const char* name_of(chaos_kind kind);

/// tools/call echo every `interval` on a session of its own.
asio::awaitable<void> echo_worker(soak_context& ctx, std::chrono::microseconds interval);
/// `kind` every `every`.
asio::awaitable<void> chaos_worker(soak_context& ctx, chaos_kind kind, std::chrono::milliseconds every);

}  // namespace loadgen
