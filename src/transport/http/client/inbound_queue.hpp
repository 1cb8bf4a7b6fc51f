#pragma once
// The frames an HTTP client transport has received, in arrival order, for
// read_frame(): POST answers, SSE events of every stream, and the error
// answers the transport makes up for requests whose HTTP exchange failed.
// Bounded in bytes: producers wait while the reader is behind.

#include <mcp/transport/transport.hpp>

#include <boost/asio/steady_timer.hpp>

#include <cstddef>
#include <deque>
#include <optional>
#include <string>

namespace mcp::detail::http_client {

class inbound_queue {
 public:
  inbound_queue(asio::any_io_executor ex, std::size_t max_bytes);

  /// Queues a frame (with its JSON, when it was parsed already); waits while
  /// the queue is over its bound (counted in bytes of text). Dropped once closed.
  asio::awaitable<void> push(inbound_frame frame);
  asio::awaitable<void> push(std::string frame);
  /// The next frame; std::nullopt once closed, or ended and drained. Throws
  /// system_error (with the reason given to fail()) once failed and drained.
  asio::awaitable<std::optional<inbound_frame>> pop();

  /// No more frames will come (the connection ended in order).
  void end();
  /// The connection failed: pop() throws `what` after the queued frames.
  void fail(std::string what);
  /// Stops everything at once: pop() returns std::nullopt, pushes are dropped.
  void close();
  bool closed() const noexcept { return closed_; }

 private:
  std::deque<inbound_frame> frames_;
  std::size_t bytes_ = 0;
  std::size_t max_bytes_;
  asio::steady_timer readable_;  // events: never expire, cancelled to wake
  asio::steady_timer writable_;
  bool ended_ = false;
  bool closed_ = false;
  std::string failure_;
};

}  // namespace mcp::detail::http_client
