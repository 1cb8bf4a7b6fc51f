#pragma once
// A node announces that it lives: SET <prefix>node:<id> with PX node_ttl,
// at once and then every heartbeat_interval, until stop(). A node whose key
// has expired is taken for dead by the others (message_bus::node_alive).

#include "redis/connection.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace mcp::detail::redis {

class heartbeat {
 public:
  /// Announces at once (through `commands`, without waiting), then on a
  /// strand of `ex`.
  heartbeat(asio::any_io_executor ex, std::shared_ptr<connection> commands, std::string key,
            std::chrono::milliseconds interval, std::chrono::milliseconds ttl);
  /// stop()s it.
  ~heartbeat();
  heartbeat(const heartbeat&) = delete;
  heartbeat& operator=(const heartbeat&) = delete;

  /// Ends the announcements (from any thread): none is sent once its timer
  /// is cancelled, and nothing of it is left on the io_context. Never throws.
  void stop() noexcept;

 private:
  struct state;
  static asio::awaitable<void> beat(std::shared_ptr<state> s);
  std::shared_ptr<state> state_;
};

}  // namespace mcp::detail::redis
