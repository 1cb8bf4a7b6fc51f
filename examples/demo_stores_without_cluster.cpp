#include "demo_stores.hpp"

#include <stdexcept>

namespace demo {

std::function<mcp::shared_stores(boost::asio::any_io_executor)> redis_stores(const std::string&) {
  throw std::runtime_error("--redis: this build of Caduceus has no cluster part (caduceus::cluster needs hiredis)");
}

}  // namespace demo
