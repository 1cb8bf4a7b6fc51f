#pragma once
// Server-Sent Events framing (WHATWG HTML, "Server-sent events"): what the
// HTTP server writes on an SSE stream.

#include <charconv>
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace mcp::detail {

/// An event id `<stream>_<seq>`, as the HTTP server numbers a stream's
/// events (seq 0 is the priming event), written where it goes instead of
/// into a string of its own.
struct sse_event_id {
  std::string_view stream;
  std::uint64_t seq = 0;
};

namespace sse_text {

// An id as the text it is written as: up to two parts (`<stream>`, `_<seq>`).
struct id_parts {
  std::string_view first;
  std::string_view second;
  char digits[21];

  explicit id_parts(std::string_view id) : first(id) {}
  explicit id_parts(const sse_event_id& id) : first(id.stream) {
    digits[0] = '_';
    second = {digits, static_cast<std::size_t>(std::to_chars(digits + 1, digits + sizeof digits, id.seq).ptr - digits)};
  }
  id_parts(const id_parts&) = delete;
  id_parts& operator=(const id_parts&) = delete;
  bool empty() const { return first.empty() && second.empty(); }
  std::size_t size() const { return first.size() + second.size(); }
};

inline char* put(char* at, std::string_view text) {
  std::char_traits<char>::copy(at, text.data(), text.size());
  return at + text.size();
}

}  // namespace sse_text

inline void append_sse_id(std::string& out, const sse_event_id& id) {
  const sse_text::id_parts parts(id);
  out += parts.first;
  out += parts.second;
}

/// Appends a `message` event to `event`; `id` (a string_view, empty for no
/// event id, or an sse_event_id). Every line of `data` gets its own `data:`
/// field, so a payload with newlines survives intact. (Its size is counted
/// first and the text written in place: an event goes out with every
/// streamed answer.)
template <class Id>
void append_sse_event(std::string& event, const Id& id, std::string_view data, std::string_view type = "message") {
  using namespace std::string_view_literals;
  const sse_text::id_parts parts(id);
  std::size_t lines = 1;  // (counted with find: memchr, where data has no newline at all)
  for (auto at = data.find('\n'); at != std::string_view::npos; at = data.find('\n', at + 1)) ++lines;
  const std::size_t size = "event: "sv.size() + type.size() + 1 + (parts.empty() ? 0 : "id: "sv.size() + parts.size() + 1) +
                           lines * ("data: "sv.size() + 1) - (lines - 1) + data.size() + 1;
  const auto old_size = event.size();
  event.resize(old_size + size);
  char* at = event.data() + old_size;
  at = sse_text::put(at, "event: ");
  at = sse_text::put(at, type);
  *at++ = '\n';
  if (!parts.empty()) {
    at = sse_text::put(at, "id: ");
    at = sse_text::put(at, parts.first);
    at = sse_text::put(at, parts.second);
    *at++ = '\n';
  }
  for (;;) {
    const auto end = data.find('\n');
    at = sse_text::put(at, "data: ");
    at = sse_text::put(at, data.substr(0, end));
    *at++ = '\n';
    if (end == std::string_view::npos) break;
    data.remove_prefix(end + 1);
  }
  *at = '\n';
}

/// The same event as a string of its own.
inline std::string sse_event(std::string_view id, std::string_view data, std::string_view type = "message") {
  std::string event;
  append_sse_event(event, id, data, type);
  return event;
}

/// The priming event of a resumable stream (spec 2025-11-25): an id the
/// client can resume from, no data, and how long to wait before reconnecting.
inline void append_sse_priming_event(std::string& event, const sse_event_id& id, std::chrono::milliseconds retry) {
  event += "id: ";
  append_sse_id(event, id);
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
