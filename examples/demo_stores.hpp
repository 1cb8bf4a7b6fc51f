#pragma once
// The Redis stores of `--redis URL` (everything-server, caduceus serve-demo),
// when this build has the cluster part (caduceus::cluster, which needs
// hiredis); demo_stores_redis.cpp or demo_stores_without_cluster.cpp.

#include <mcp/server/http_endpoint.hpp>

#include <functional>
#include <string>

namespace demo {

/// The stores of replicas sharing their sessions through the Redis at `url`.
/// @throws std::runtime_error when this build has no cluster part.
std::function<mcp::shared_stores(boost::asio::any_io_executor)> redis_stores(const std::string& url);

}  // namespace demo
