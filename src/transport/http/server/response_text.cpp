#include "response_text.hpp"

#include <cstring>

namespace mcp::detail {

std::string head_text(const response_head& head, std::size_t room_after) {
  // Written through a cursor into room reserved once: a head is a few short
  // pieces, and appending each to a std::string cost more than the rest of
  // writing the response.
  std::string text;
  const auto longest = 192 + head.content_type.size() + head.field.name.size() + head.field.value.size() +
                       head.extra_fields.size();
  text.reserve(longest + room_after);
  text.resize(longest);
  char* out = text.data();
  const auto put = [&out](std::string_view piece) {
    if (piece.empty()) return;  // an empty view may hold a null pointer, which memcpy must not get
    std::memcpy(out, piece.data(), piece.size());
    out += piece.size();
  };
  const auto put_number = [&out](std::size_t n) { out = std::to_chars(out, out + 24, n).ptr; };
  const auto field = [&](std::string_view name, std::string_view value) {
    put(name);
    put(": ");
    put(value);
    put("\r\n");
  };
  const bool http10 = head.version == 10;
  put(http10 ? "HTTP/1.0 " : "HTTP/1.1 ");
  put_number(static_cast<unsigned>(head.status));
  put(" ");
  put(http::obsolete_reason(head.status));
  put("\r\n");
  if (!head.content_type.empty()) field("Content-Type", head.content_type);
  if (head.no_cache) {
    field("Cache-Control", "no-cache");
    field("X-Accel-Buffering", "no");  // a proxy (nginx) must not hold back SSE events
  }
  if (!head.field.value.empty()) field(head.field.name, head.field.value);
  put(head.extra_fields);
  if (head.content_length) {
    put("Content-Length: ");
    put_number(*head.content_length);
    put("\r\n");
  } else {
    field("Transfer-Encoding", "chunked");
  }
  // HTTP/1.1 keeps the connection unless told; HTTP/1.0 closes it unless told.
  if (!head.keep_alive && !http10) field("Connection", "close");
  if (head.keep_alive && http10) field("Connection", "keep-alive");
  put("\r\n");
  text.resize(static_cast<std::size_t>(out - text.data()));
  return text;
}

}  // namespace mcp::detail
