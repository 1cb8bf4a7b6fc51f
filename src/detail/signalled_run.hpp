#pragma once
// A request run as a coroutine whose cancellation slot is bound to `signal`:
// stopped when the protocol core's table of requests being served says so
// (a `notifications/cancelled`, the connection ending). The server's engine
// and the client's answers to server requests both run theirs on it.

#include "../protocol/inbound_table.hpp"

#include <boost/asio/cancellation_signal.hpp>

#include <atomic>

namespace mcp::detail {

struct signalled_run final : cancellable {
  boost::asio::cancellation_signal signal;
  // What its handler sees (request_context::cancelled), read on the worker
  // pool by a plain-function handler while cancel() runs on the session's
  // executor: an atomic, so that the read is not a data race.
  std::atomic<bool> cancelled = false;
  void cancel() noexcept override {
    cancelled.store(true, std::memory_order_relaxed);
    signal.emit(boost::asio::cancellation_type::terminal);
  }
};

}  // namespace mcp::detail
