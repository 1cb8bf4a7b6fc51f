// The client's middleware chain (include/mcp/client/middleware.hpp).

#include <mcp/client/middleware.hpp>

namespace mcp {

asio::awaitable<json::object> client_next::operator()(outgoing_request req) const {
  if (index_ == chain_->links->size()) return chain_->send(std::move(req));
  return (*chain_->links)[index_]->on_request(std::move(req), client_next(*chain_, index_ + 1));
}

asio::awaitable<json::object> client_middleware::on_request(outgoing_request req, client_next next) {
  return next(std::move(req));
}

}  // namespace mcp
