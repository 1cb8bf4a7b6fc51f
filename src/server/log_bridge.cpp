#include "log_bridge.hpp"

#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/asio/post.hpp>

namespace mcp::detail {

namespace {

bool stays_local(log_category category) noexcept {
  return category == log_category::transport || category == log_category::client ||
         category == log_category::access;
}

logging_level mcp_level(log_level level) noexcept {
  switch (level) {
    case log_level::trace:
    case log_level::debug: return logging_level::debug;
    case log_level::info: return logging_level::info;
    case log_level::warn: return logging_level::warning;
    case log_level::error:
    case log_level::off: break;
  }
  return logging_level::error;
}

// The record as the notification's data: its message and fields.
json::object data_of(const log_record& record) {
  json::object data;
  data["msg"] = record.message;
  for (const auto& f : record.fields) {
    switch (f.type) {
      case log_field::kind::text: data[f.key] = f.text; break;
      case log_field::kind::integer: data[f.key] = f.integer; break;
      case log_field::kind::real: data[f.key] = f.real; break;
    }
  }
  return data;
}

}  // namespace

log_bridge::log_bridge()
    : observer_(observe_logs([known = sessions_](const log_record& record) { forward(*known, record); })) {}

void log_bridge::add(session& s) {
  std::lock_guard lock(sessions_->mutex);
  sessions_->by_id[s.id()] = s.weak_from_this();
}

void log_bridge::remove(const session& s) {
  std::lock_guard lock(sessions_->mutex);
  const auto it = sessions_->by_id.find(s.id());
  if (it == sessions_->by_id.end()) return;
  // (A session of the same id added since stays.)
  const auto held = it->second.lock();
  if (!held || held.get() == &s) sessions_->by_id.erase(it);
}

void log_bridge::forward(sessions& known, const log_record& record) {
  if (stays_local(record.category)) return;
  const auto* id = record.field("session_id");
  if (!id || id->type != log_field::kind::text) return;
  std::weak_ptr<session> target;
  {
    std::lock_guard lock(known.mutex);
    const auto it = known.by_id.find(id->text);
    if (it == known.by_id.end()) return;
    target = it->second;
  }
  auto s = target.lock();
  if (!s) return;
  const auto level = mcp_level(record.level);
  auto params = to_json_value(log_message{level, "caduceus." + std::string(to_string(record.category)),
                                          data_of(record)});
  // The session's level is read on its own executor, where logging/setLevel
  // changes it (the line may be logged on any thread).
  asio::post(s->get_executor(), [target, level, params = std::move(params.as_object())]() mutable {
    const auto s = target.lock();
    if (!s) return;
    const auto threshold = s->log_level();
    if (s->per_request() && !threshold) return;  // a 2026-07-28 request that asked for none
    if (threshold && level < *threshold) return;
    s->post_notification(methods::notifications_message, std::move(params));
  });
}

}  // namespace mcp::detail
