#include "client_connection.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>

#include "read_params.hpp"

namespace mcp::detail {

namespace {

// The subject of a `notifications/<subject>/list_changed`, any subject: a
// server may announce lists this build does not know.
std::optional<std::string_view> list_changed_subject(std::string_view method) {
  constexpr std::string_view prefix = "notifications/";
  constexpr std::string_view suffix = "/list_changed";
  if (method.size() <= prefix.size() + suffix.size() || !method.starts_with(prefix) ||
      !method.ends_with(suffix))
    return std::nullopt;
  return method.substr(prefix.size(), method.size() - prefix.size() - suffix.size());
}

}  // namespace

client_connection::frame_cursor client_connection::receive(inbound_frame&& frame) {
  frame_cursor cursor;
  if (frame.oversized) {
    sdk_log(log_category::protocol, log_level::warn, "server sent a message over the size limit; dropped");
    return cursor;
  }
  // The HTTP transport parsed it already, to know what it answers.
  cursor.items = frame.parsed ? classify_frame(std::move(*frame.parsed)).items : parse_frame(frame.text).items;
  return cursor;
}

std::optional<client_connection::action> client_connection::next(frame_cursor& frame) {
  if (frame.position == frame.items.size()) return std::nullopt;
  auto& item = frame.items[frame.position++];
  if (auto* bad = std::get_if<invalid_message>(&item)) {
    sdk_log(log_category::protocol, log_level::warn, "server sent an invalid message",
            {{"error", bad->reply.error.message}});
    return *requests_.reply(std::move(bad->reply), 0);
  }
  auto& msg = std::get<message>(item);
  if (auto* n = std::get_if<notification>(&msg)) {
    if (n->method == methods::notifications_progress) return route_progress{n->params};
    return on_notification(*n);
  }
  if (auto* req = std::get_if<request>(&msg)) return serve_server_request{*req};
  return deliver_response{msg};
}

client_connection::action client_connection::on_notification(const notification& n) {
  const std::string_view method = n.method;
  if (method == methods::notifications_cancelled) {
    cancellable* stop = nullptr;
    if (const auto id = cancelled_request(n.params)) stop = requests_.cancel(*id);
    return deliver_notification{n, notice::cancelled, {}, stop};
  }
  if (method == methods::notifications_subscriptions_acknowledged)
    return deliver_notification{n, notice::listen_acknowledged};
  if (method == methods::notifications_message) return deliver_notification{n, notice::log_message};
  if (const auto subject = list_changed_subject(method))
    return deliver_notification{n, notice::list_changed, *subject};
  if (method == methods::notifications_resources_updated) {
    if (const auto* uri = n.params.if_contains("uri"); uri && uri->is_string())
      return deliver_notification{n, notice::resource_updated, uri->get_string()};
  }
  return deliver_notification{n};
}

}  // namespace mcp::detail
