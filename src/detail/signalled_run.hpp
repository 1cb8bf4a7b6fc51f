#pragma once
// A request run as a coroutine whose cancellation slot is bound to `signal`:
// stopped when the protocol core's table of requests being served says so
// (a `notifications/cancelled`, the connection ending). The server's engine
// and the client's answers to server requests both run theirs on it.

#include "../protocol/inbound_table.hpp"

#include <boost/asio/cancellation_signal.hpp>

namespace mcp::detail {

struct signalled_run final : cancellable {
  boost::asio::cancellation_signal signal;
  bool cancelled = false;  // what its handler sees (request_context)
  void cancel() noexcept override {
    cancelled = true;
    signal.emit(boost::asio::cancellation_type::terminal);
  }
};

}  // namespace mcp::detail
