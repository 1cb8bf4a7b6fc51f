#include <mcp/server/behaviour.hpp>

#include <array>
#include <cmath>

namespace mcp {

namespace {

constexpr std::array<std::string_view, 8> level_names{"debug",    "info",  "notice", "warning",
                                                      "error",    "critical", "alert", "emergency"};

// Whole numbers go out as integers ("50", not Boost.JSON's "5E1" for a double).
json::value as_json_number(double value) {
  if (value == std::floor(value) && std::abs(value) < 9.0e15) return static_cast<std::int64_t>(value);
  return value;
}

bool declares(const json::object& capabilities, std::string_view name) {
  const auto* v = capabilities.if_contains(name);
  return v && v->is_object();
}

}  // namespace

std::string_view to_string(logging_level level) noexcept {
  return level_names[static_cast<std::size_t>(level)];
}

std::optional<logging_level> parse_logging_level(std::string_view text) noexcept {
  for (std::size_t i = 0; i < level_names.size(); ++i)
    if (level_names[i] == text) return static_cast<logging_level>(i);
  return std::nullopt;
}

asio::awaitable<void> session::notify(std::string method, json::object params) {
  notification n{std::move(method), std::move(params)};
  co_await link_->send_notification(std::move(n), {});
}

void session::post_notification(std::string method, json::object params) {
  link_->post_notification(notification{std::move(method), std::move(params)});
}

request_context::request_context(const mcp::request& req, mcp::session& s,
                                 const bool& cancelled) noexcept
    : request_(req), session_(s), cancelled_(cancelled),
      id_text_(to_json_text(req.id)) {}

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
  json::object params{{"progressToken", *token}, {"progress", as_json_number(value)}};
  if (total) params["total"] = as_json_number(*total);
  if (!message.empty() && dialect_of(version()).progress_message) params["message"] = message;
  notification n{"notifications/progress", std::move(params)};
  co_await session_.link_->send_notification(std::move(n), id_text_);
}

asio::awaitable<void> request_context::notify(std::string method, json::object params) {
  notification n{std::move(method), std::move(params)};
  co_await session_.link_->send_notification(std::move(n), id_text_);
}

void request_context::close_stream() { session_.link_->close_stream(id_text_); }

asio::awaitable<json::object> request_context::request(std::string method, json::object params,
                                                       std::chrono::milliseconds timeout) {
  co_return co_await session_.link_->send_request(std::move(method), std::move(params), timeout,
                                                 id_text_);
}

asio::awaitable<void> request_context::log(logging_level level, json::value data,
                                            std::string_view logger) {
  if (const auto threshold = session_.log_level(); threshold && level < *threshold) co_return;
  json::object params{{"level", to_string(level)}, {"data", std::move(data)}};
  if (!logger.empty()) params["logger"] = logger;
  co_await notify("notifications/message", std::move(params));
}

asio::awaitable<json::object> request_context::sample(json::object params,
                                                      std::chrono::milliseconds timeout) {
  if (!declares(session_.client_capabilities(), "sampling"))
    throw capability_error("the client does not support sampling");
  co_return co_await request("sampling/createMessage", std::move(params), timeout);
}

asio::awaitable<json::object> request_context::elicit(std::string message,
                                                      json::object requested_schema,
                                                      std::chrono::milliseconds timeout) {
  if (!dialect_of(version()).elicitation)
    throw capability_error("elicitation needs protocol version 2025-06-18 or later");
  if (!declares(session_.client_capabilities(), "elicitation"))
    throw capability_error("the client does not support elicitation");
  json::object params{{"message", std::move(message)}, {"requestedSchema", std::move(requested_schema)}};
  if (dialect_of(version()).url_elicitation) params["mode"] = "form";
  co_return co_await request("elicitation/create", std::move(params), timeout);
}

asio::awaitable<json::object> request_context::elicit_url(std::string message, std::string url,
                                                          std::string elicitation_id,
                                                          std::chrono::milliseconds timeout) {
  if (!dialect_of(version()).url_elicitation)
    throw capability_error("URL elicitation needs protocol version 2025-11-25 or later");
  const auto* elicitation = session_.client_capabilities().if_contains("elicitation");
  if (!elicitation || !elicitation->is_object() || !elicitation->get_object().contains("url"))
    throw capability_error("the client does not support URL elicitation");
  json::object params{{"mode", "url"},
                      {"message", std::move(message)},
                      {"url", std::move(url)},
                      {"elicitationId", std::move(elicitation_id)}};
  co_return co_await request("elicitation/create", std::move(params), timeout);
}

asio::awaitable<json::array> request_context::roots(std::chrono::milliseconds timeout) {
  if (!declares(session_.client_capabilities(), "roots"))
    throw capability_error("the client does not support roots");
  auto result = co_await request("roots/list", json::object{}, timeout);
  auto* roots = result.if_contains("roots");
  if (!roots || !roots->is_array())
    throw protocol_error(errc::internal_error, "Malformed roots/list result: no roots array");
  co_return std::move(roots->get_array());
}

asio::awaitable<void> server_behaviour::handle_notification(const notification&, session&) {
  co_return;
}

}  // namespace mcp
