#pragma once
// Upstream children started ahead of the sessions that will take them. A
// stdio server takes its time to start (a node program half a second or
// more), and a session's first request would wait for it; a child started
// before the session begins is up by then. Each child taken is replaced at
// once. The handshake is still the session's own: the child learns the
// session's client and revision from it.

#include <mcp/transport/transport.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace caduceus::gateway {

namespace asio = boost::asio;

/// A child started ahead: its transport, and the strand its link must run on
/// (its pipes were opened there).
struct warm_child {
  asio::any_io_executor strand;
  std::unique_ptr<mcp::message_transport> transport;
};

class warm_children {
 public:
  /// Starts a child on a strand (may throw).
  using starter = std::function<std::unique_ptr<mcp::message_transport>(asio::any_io_executor strand)>;

  /// Keeps `count` children started, each on a strand from `new_strand`.
  warm_children(starter start, std::function<asio::any_io_executor()> new_strand, std::size_t count);

  /// A child started ahead, replaced by a new one; none when starting them
  /// fails (the session then starts its own, and fails as that one does).
  /// Any thread.
  std::optional<warm_child> take();
  /// Ends the children still waiting (SIGKILL: they never had a session).
  void clear();

 private:
  void top_up();  // with mutex_ held

  starter start_;
  std::function<asio::any_io_executor()> new_strand_;
  std::size_t count_;
  std::mutex mutex_;
  std::deque<warm_child> ready_;
};

}  // namespace caduceus::gateway
