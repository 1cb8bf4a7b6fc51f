// The client's middleware chain (include/mcp/client/middleware.hpp).

#include <mcp/client/middleware.hpp>

#include "../detail/link_list.hpp"

namespace mcp {

namespace {

// A link made from a lambda.
class client_function_link final : public client_middleware {
 public:
  explicit client_function_link(client_request_function f) : f_(std::move(f)) {}
  asio::awaitable<json::object> on_request(outgoing_request req, client_next next) override {
    return f_(std::move(req), next);
  }

 private:
  client_request_function f_;
};

}  // namespace

asio::awaitable<json::object> client_next::operator()(outgoing_request req) const {
  if (index_ == chain_->links->size()) return chain_->send(std::move(req));
  return (*chain_->links)[index_]->on_request(std::move(req), client_next(*chain_, index_ + 1));
}

asio::awaitable<json::object> client_middleware::on_request(outgoing_request req, client_next next) {
  return next(std::move(req));
}

client_middleware_chain::client_middleware_chain() : links_(std::make_shared<const detail::client_links>()) {}

void client_middleware_chain::use(std::shared_ptr<client_middleware> link) {
  if (link) detail::add_link(mutex_, links_, std::move(link), &empty_);
}

std::shared_ptr<client_middleware> client_middleware_chain::use(client_request_function on_request) {
  auto link = std::make_shared<client_function_link>(std::move(on_request));
  use(link);
  return link;
}

bool client_middleware_chain::remove(const std::shared_ptr<client_middleware>& link) {
  return detail::remove_link(mutex_, links_, link, &empty_);
}

std::shared_ptr<const detail::client_links> client_middleware_chain::snapshot() const {
  return detail::snapshot_of(mutex_, links_);
}

}  // namespace mcp
