#include "demo_stores.hpp"

#include <mcp/cluster/redis.hpp>

namespace demo {

std::function<mcp::shared_stores(boost::asio::any_io_executor)> redis_stores(const std::string& url) {
  mcp::cluster::redis_options redis;
  redis.url = url;
  return mcp::cluster::make_redis_stores(redis);  // (a bad URL fails the start)
}

}  // namespace demo
