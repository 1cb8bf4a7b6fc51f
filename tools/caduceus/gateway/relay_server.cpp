#include "relay_server.hpp"

#include <mcp/protocol/methods.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_future.hpp>

#include <future>

namespace caduceus::gateway {

std::span<const std::string> tool_scopes_of(const std::map<std::string, std::vector<std::string>, std::less<>>& tool_scopes,
                                            const mcp::request& req) {
  if (tool_scopes.empty() || req.method != mcp::methods::tools_call) return {};
  const auto* name = req.params.if_contains("name");
  if (!name || !name->is_string()) return {};
  const auto scoped = tool_scopes.find(name->get_string());
  return scoped == tool_scopes.end() ? std::span<const std::string>() : scoped->second;
}

relay_server::relay_server(relay_options options)
    : tool_scopes_(std::move(options.tool_scopes)),
      served_versions_(std::move(options.served_versions)),
      links_(0, std::move(options.upstream)) {}

void relay_server::start(std::chrono::steady_clock::duration limit) {
  auto link = links_.shared_link();
  auto learnt = asio::co_spawn(link->get_executor(), link->handshake(), asio::use_future);
  if (learnt.wait_for(limit) != std::future_status::ready)
    throw std::runtime_error("the upstream server did not answer its handshake within " +
                             std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) + " s");
  upstream_ = learnt.get();
}

asio::awaitable<json::object> relay_server::handle_request(const mcp::request& req, mcp::request_context& ctx) {
  ctx.require_scopes(tool_scopes_of(tool_scopes_, req));  // refused as our servers refuse a tool's required_scopes
  co_return co_await links_.serve(req, ctx);
}

asio::awaitable<void> relay_server::handle_notification(const mcp::notification& n, mcp::session& s) {
  links_.forward(n, s);
  co_return;
}

}  // namespace caduceus::gateway
