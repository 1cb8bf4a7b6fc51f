#pragma once
// Sessions, events, the message bus and task records in Redis, so that any number of
// server processes behind a load balancer serve the same sessions with no
// stickiness (docs/scale-out.md). Link caduceus::cluster.
//
//   mcp::http_server_options options;
//   options.make_stores = mcp::cluster::make_redis_stores({.url = "redis://127.0.0.1:6379"});
//   return mcp::run_http_server(srv, options);

#include <mcp/export.hpp>
#include <mcp/server/http_server.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace mcp::cluster {

/// Where the Redis is, and how the stores use it.
struct MCP_API redis_options {
  /// redis://[[user]:password@]host[:port][/db]
  std::string url = "redis://127.0.0.1:6379";
  /// Begins every key and channel, so that unrelated servers can share a Redis.
  std::string prefix = "caduceus:";
  /// A command Redis does not answer within this long fails (503 for the
  /// request that needed it), and the connection is made again.
  std::chrono::milliseconds command_timeout{2000};
  /// Resolving, connecting and the greeting (AUTH, SELECT, PING) together;
  /// a connection not made within it fails, and is tried again after a backoff.
  std::chrono::milliseconds connect_timeout{2000};
  /// Per stream, the newest events kept for resumption (older ones are trimmed).
  std::size_t max_events_per_stream = 1024;
  /// Events and stream records expire this long after their last append.
  std::chrono::seconds event_ttl{3600};
  /// How often a node announces that it lives, and how long the announcement
  /// holds: a node silent for `node_ttl` is taken for dead, and the calls it
  /// ran fail with an error where their clients resume them.
  std::chrono::milliseconds heartbeat_interval{1000};
  std::chrono::milliseconds node_ttl{3000};  ///< See heartbeat_interval; keep it a few intervals long.
};

/// The stores on one Redis (one connection for commands, one for the bus's
/// subscriptions, both on strands of `ex`): sessions, events, the bus, and
/// `tasks`, which an HTTP server made with them gives its server (a server
/// whose task_options name a store keeps that one). Throws
/// mcp::invalid_argument for a malformed URL; connects in the background
/// (until Redis answers, requests that need it fail with 503).
MCP_API shared_stores redis_stores(asio::any_io_executor ex, redis_options options);

/// For http_server_options::make_stores.
MCP_API std::function<shared_stores(asio::any_io_executor)> make_redis_stores(redis_options options);

}  // namespace mcp::cluster
