#pragma once
// Server-Sent Events framing (WHATWG HTML, "Server-sent events"): what the
// HTTP server writes on an SSE stream.

#include <chrono>
#include <string>
#include <string_view>

namespace mcp::detail {

/// Appends a `message` event to `event`; `id` may be empty (no event id).
/// Every line of `data` gets its own `data:` field, so a payload with
/// newlines survives intact.
inline void append_sse_event(std::string& event, std::string_view id, std::string_view data,
                             std::string_view type = "message") {
  event.reserve(event.size() + data.size() + id.size() + 32);
  event += "event: ";
  event += type;
  event += '\n';
  if (!id.empty()) {
    event += "id: ";
    event += id;
    event += '\n';
  }
  for (;;) {
    const auto end = data.find('\n');
    event += "data: ";
    event += data.substr(0, end);
    event += '\n';
    if (end == std::string_view::npos) break;
    data.remove_prefix(end + 1);
  }
  event += '\n';
}

/// The same event as a string of its own.
inline std::string sse_event(std::string_view id, std::string_view data, std::string_view type = "message") {
  std::string event;
  append_sse_event(event, id, data, type);
  return event;
}

/// The priming event of a resumable stream (spec 2025-11-25): an id the
/// client can resume from, no data, and how long to wait before reconnecting.
inline void append_sse_priming_event(std::string& event, std::string_view id, std::chrono::milliseconds retry) {
  event += "id: ";
  event += id;
  event += "\nretry: ";
  event += std::to_string(retry.count());
  event += "\ndata: \n\n";
}

/// Tells the client how long to wait before it reconnects; sent before the
/// server closes a connection whose stream goes on.
inline std::string sse_retry(std::chrono::milliseconds retry) {
  return "retry: " + std::to_string(retry.count()) + "\n\n";
}

/// A comment line that keeps proxies from closing an idle stream.
inline constexpr std::string_view sse_keep_alive = ": keep-alive\n\n";

}  // namespace mcp::detail
