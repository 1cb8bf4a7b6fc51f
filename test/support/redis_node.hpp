#pragma once
// One server process's Redis stores, as the Redis tests make them: short
// deadlines and a fast heartbeat (failures and deaths show in well under a
// second), closed when the node goes.

#include <mcp/cluster/redis.hpp>
#include <mcp/server/store_error.hpp>

#include "redis_server.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace mcp::test {

/// The message of the store_unavailable `call` threw (what the HTTP server
/// answers 503 for), or nullopt when it succeeded.
template <class T>
boost::asio::awaitable<std::optional<std::string>> store_failure_of(boost::asio::awaitable<T> call) {
  try {
    co_await std::move(call);
  } catch (const store_unavailable& e) {
    co_return e.what();
  }
  co_return std::nullopt;
}

inline cluster::redis_options quick_options(const redis_server& server) {
  using namespace std::chrono_literals;
  cluster::redis_options options;
  options.url = server.url();
  options.prefix = "test:";
  options.command_timeout = 500ms;
  options.connect_timeout = 500ms;
  options.heartbeat_interval = 100ms;
  options.node_ttl = 300ms;
  return options;
}

struct redis_node {
  redis_node(boost::asio::io_context& io, const cluster::redis_options& options)
      : stores(cluster::redis_stores(io.get_executor(), options)) {}
  ~redis_node() { stores.close(); }
  redis_node(const redis_node&) = delete;
  redis_node& operator=(const redis_node&) = delete;

  session_store& sessions() { return *stores.sessions; }
  event_store& events() { return *stores.events; }
  task_store& tasks() { return *stores.tasks; }
  message_bus& bus() { return *stores.bus; }

  shared_stores stores;
};

}  // namespace mcp::test
