#pragma once
// What crosses between the processes (nodes) that serve one set of sessions
// behind a load balancer: a message published on a channel reaches every
// subscriber of that channel in every process. The HTTP server uses one
// channel per session for what one node produces and another must deliver:
// the events of a stream whose client reconnected elsewhere, messages for a
// GET stream held elsewhere, the client's answers and cancellations of
// requests running elsewhere, and the end of the session (docs/scale-out.md).
//
// The bus also names this process (node_id) and tells whether another one
// is still alive, so that a node can fail what a dead node left unfinished.
//
// The default, make_memory_message_bus, joins the servers of one process;
// cluster::make_redis_stores (<mcp/cluster/redis.hpp>) joins processes.

#include <mcp/export.hpp>
#include <mcp/server/store_error.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp {

namespace asio = boost::asio;

/// Publish/subscribe between nodes, at most once: a message published while
/// a subscriber is disconnected is lost to it, and its `on_gap` says so.
///
/// @par Thread safety
/// Every function may be called from any thread. The handlers of one
/// subscription run one at a time, in the order the messages were published
/// by each publisher; they must not block.
class MCP_API message_bus {
 public:
  /// Handles one message of a channel.
  using handler = std::function<void(std::string_view message)>;

  /// A subscription lasts as long as this handle: destroying it stops its
  /// handlers soon (one may be running, or about to run, on another thread:
  /// a handler should hold weak references to what it uses).
  class subscription {
   public:
    /// Ends the subscription (see above).
    virtual ~subscription() = default;
  };

  virtual ~message_bus() = default;

  /// Sends `message` to every subscriber of `channel`. Does not wait; a
  /// failure (the bus is unreachable) is logged. With the Redis stores the
  /// message is ordered after the event store's earlier appends, so a node
  /// that subscribes, then replays the store, misses nothing in between.
  virtual void publish(std::string channel, std::string message) = 0;

  /// Calls `on_message` for every message published on `channel` from the
  /// moment this returns until the handle is destroyed; `on_gap`, when set,
  /// after messages may have been lost (the bus reconnected). Throws
  /// store_unavailable when the bus is unreachable.
  virtual asio::awaitable<std::unique_ptr<subscription>> subscribe(std::string channel, handler on_message,
                                                                   std::function<void()> on_gap) = 0;

  /// The name of this process on the bus, unique among the nodes: made of
  /// letters and digits only.
  virtual const std::string& node_id() const noexcept = 0;

  /// Whether the node named is alive (it keeps announcing itself). Throws
  /// store_unavailable when the bus is unreachable.
  virtual asio::awaitable<bool> node_alive(std::string node) = 0;
};

/// A bus inside this process: servers given the same one (and the same
/// session and event stores) serve the same sessions. Handlers run on
/// `ex` (a strand of it), never inside publish().
MCP_API std::shared_ptr<message_bus> make_memory_message_bus(asio::any_io_executor ex);

}  // namespace mcp
