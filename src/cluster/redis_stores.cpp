// The stores on one Redis: one connection for the commands of all of
// them (so that a bus message is ordered after the event appends made
// before it: a node that subscribes, then replays, misses nothing), and the
// bus's subscriber on a connection of its own.

#include "redis_parts.hpp"

namespace mcp::cluster {

namespace redis = detail::redis;

shared_stores redis_stores(asio::any_io_executor ex, redis_options options) {
  auto cfg = redis::config::from_url(options.url);
  cfg.command_timeout = options.command_timeout;
  cfg.connect_timeout = options.connect_timeout;
  auto subscriptions = cfg;
  cfg.scripts = redis::event_store_scripts();
  const redis::key_names keys(options.prefix);

  auto commands = redis::connection::create(ex, std::move(cfg));
  auto bus = redis::make_message_bus(ex, commands, std::move(subscriptions), keys, options);
  shared_stores stores;
  stores.sessions = redis::make_session_store(commands, keys);
  stores.events = redis::make_event_store(commands, keys, options);
  stores.bus = bus;
  stores.tasks = redis::make_task_store(commands, keys);
  stores.close = [commands, bus] {
    bus->close();
    commands->close();
  };
  return stores;
}

std::function<shared_stores(asio::any_io_executor)> make_redis_stores(redis_options options) {
  return [options = std::move(options)](asio::any_io_executor ex) { return redis_stores(std::move(ex), options); };
}

}  // namespace mcp::cluster
