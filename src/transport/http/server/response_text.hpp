#pragma once
// The bytes of a response as they go on the wire: its head, and the chunks
// of a chunked body. Our responses carry few headers, so the text is written
// directly (Beast's fields allocate per field, on every response).

#include <charconv>
#include <cstddef>
#include <optional>
#include <ostream>  // before Beast's status.hpp, which uses it without including it
#include <string>
#include <string_view>

#include <boost/beast/http/status.hpp>

namespace mcp::detail {

namespace http = boost::beast::http;

/// One header line, written when its value is set.
struct header_field {
  std::string_view name;
  std::string_view value;
};

/// The head of a response.
struct response_head {
  http::status status = http::status::ok;
  unsigned version = 11;  ///< of the request: 10 or 11
  bool keep_alive = true;
  std::string_view content_type = {};
  bool no_cache = false;  ///< an event stream: nothing may cache or buffer it
  header_field field = {};  ///< one more header, named by the layer above (the MCP server's Mcp-Session-Id)
  std::optional<std::size_t> content_length = {};  ///< unset: a chunked body follows
  std::string_view extra_fields = {};  ///< more header lines, each ending in CRLF
};

/// The head as the bytes that go on the wire, blank line included, in a
/// string with room for `room_after` more bytes (the body that follows).
std::string head_text(const response_head& head, std::size_t room_after = 0);

/// Appends one chunk of a chunked HTTP/1.1 body to `out`.
inline void append_chunk(std::string& out, std::string_view data) {
  char size[20];
  const auto end = std::to_chars(size, size + sizeof size, data.size(), 16).ptr;
  out.reserve(out.size() + static_cast<std::size_t>(end - size) + data.size() + 4);
  out.append(size, end);
  out += "\r\n";
  out += data;
  out += "\r\n";
}

/// The chunk that ends a chunked body (with no trailer).
inline constexpr std::string_view last_chunk = "0\r\n\r\n";

}  // namespace mcp::detail
