#include <mcp/server/behaviour.hpp>

namespace mcp {

asio::awaitable<void> session::notify(std::string method, json::object params) {
  notification n{std::move(method), std::move(params)};
  co_await link_->send_notification(std::move(n));
}

request_context::request_context(const mcp::request& req, mcp::session& s,
                                 const bool& cancelled) noexcept
    : request_(req), session_(s), cancelled_(cancelled) {}

const json::object& request_context::meta() const noexcept {
  static const json::object empty;
  const auto* meta = request_.params.if_contains("_meta");
  return meta && meta->is_object() ? meta->get_object() : empty;
}

asio::awaitable<void> request_context::progress(double value, std::optional<double> total,
                                                std::string_view message) {
  const auto* token = meta().if_contains("progressToken");
  if (!token || !(token->is_string() || token->is_int64() || token->is_uint64())) co_return;
  if (last_progress_ && value <= *last_progress_) co_return;
  last_progress_ = value;
  json::object params{{"progressToken", *token}, {"progress", value}};
  if (total) params["total"] = *total;
  if (!message.empty() && dialect_of(version()).progress_message) params["message"] = message;
  notification n{"notifications/progress", std::move(params)};
  co_await session_.link_->send_notification(std::move(n));
}

asio::awaitable<void> request_context::notify(std::string method, json::object params) {
  notification n{std::move(method), std::move(params)};
  co_await session_.link_->send_notification(std::move(n));
}

asio::awaitable<json::object> request_context::request(std::string method, json::object params,
                                                       std::chrono::milliseconds timeout) {
  co_return co_await session_.link_->send_request(std::move(method), std::move(params), timeout);
}

asio::awaitable<void> server_behaviour::handle_notification(const notification&, session&) {
  co_return;
}

}  // namespace mcp
