#pragma once
// The Redis stores, made separately by redis_stores (redis_stores.cpp)
// on one connection for commands: so a bus message is ordered after the
// event appends queued before it.

#include "redis/config.hpp"
#include "redis/connection.hpp"
#include "redis_keys.hpp"

#include <mcp/cluster/redis.hpp>

#include <memory>
#include <string>
#include <vector>

namespace mcp::detail::redis {

std::shared_ptr<session_store> make_session_store(std::shared_ptr<connection> commands, key_names keys);

std::shared_ptr<event_store> make_event_store(std::shared_ptr<connection> commands, key_names keys,
                                              const cluster::redis_options& options);
/// The event store's Lua scripts: its connection's config::scripts, since it
/// sends them without waiting (connection::send_eval).
std::vector<std::string> event_store_scripts();

/// Task records (redis_task_store.cpp).
std::shared_ptr<task_store> make_task_store(std::shared_ptr<connection> commands, key_names keys);

/// A message bus whose subscriptions and heartbeat can be ended.
class closable_bus : public message_bus {
 public:
  /// Stops the heartbeat and closes the subscriber (not `commands`, which
  /// the other stores share). Never throws.
  virtual void close() noexcept = 0;
};

/// Publishes through `commands`; subscribes on a connection of its own,
/// made from `subscriptions`; announces itself through `commands` until close().
std::shared_ptr<closable_bus> make_message_bus(asio::any_io_executor ex, std::shared_ptr<connection> commands,
                                               config subscriptions, key_names keys,
                                               const cluster::redis_options& options);

}  // namespace mcp::detail::redis
