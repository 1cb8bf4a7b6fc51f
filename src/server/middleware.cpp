// The server middleware chain (include/mcp/server/middleware.hpp).

#include <mcp/server/behaviour.hpp>
#include <mcp/server/middleware.hpp>

#include "../detail/link_list.hpp"

#include <algorithm>

namespace mcp {

namespace {

// A link made from a lambda: it wraps requests, and passes notifications on.
class function_link final : public server_middleware {
 public:
  explicit function_link(request_middleware_function f) : f_(std::move(f)) {}
  asio::awaitable<json::object> on_request(const request& req, request_context& ctx, request_next next) override {
    return f_(req, ctx, next);
  }

 private:
  request_middleware_function f_;
};

}  // namespace

asio::awaitable<json::object> request_next::operator()(const request& req, request_context& ctx) const {
  if (index_ == links_->size()) return behaviour_->handle_request(req, ctx);
  return (*links_)[index_]->on_request(req, ctx, request_next(*links_, index_ + 1, *behaviour_));
}

asio::awaitable<void> notification_next::operator()(const notification& n, session& s) const {
  if (index_ == links_->size()) return behaviour_->handle_notification(n, s);
  return (*links_)[index_]->on_notification(n, s, notification_next(*links_, index_ + 1, *behaviour_));
}

asio::awaitable<json::object> server_middleware::on_request(const request& req, request_context& ctx,
                                                            request_next next) {
  return next(req, ctx);
}

asio::awaitable<void> server_middleware::on_notification(const notification& n, session& s, notification_next next) {
  return next(n, s);
}

middleware_chain::middleware_chain() : links_(std::make_shared<const detail::middleware_links>()) {}

std::shared_ptr<const detail::middleware_links> middleware_chain::snapshot() const {
  return detail::snapshot_of(mutex_, links_);
}

void middleware_chain::use(std::shared_ptr<server_middleware> link) {
  if (!link) return;
  detail::add_link(mutex_, links_, std::move(link), &empty_);
}

std::shared_ptr<server_middleware> middleware_chain::use(request_middleware_function on_request) {
  auto link = std::make_shared<function_link>(std::move(on_request));
  use(link);
  return link;
}

bool middleware_chain::remove(const std::shared_ptr<server_middleware>& link) {
  return detail::remove_link(mutex_, links_, link, &empty_);
}

// The coroutine frame keeps the chain as it was when the request started,
// whatever use() and remove() do meanwhile.
asio::awaitable<json::object> middleware_chain::handle_request(server_behaviour& behaviour, const request& req,
                                                               request_context& ctx) const {
  const auto links = snapshot();
  const request_next first(*links, 0, behaviour);
  co_return co_await first(req, ctx);
}

asio::awaitable<void> middleware_chain::handle_notification(server_behaviour& behaviour, const notification& n,
                                                            session& s) const {
  const auto links = snapshot();
  const notification_next first(*links, 0, behaviour);
  co_await first(n, s);
}

}  // namespace mcp
