#pragma once
// The Streamable HTTP modes the generator drives: with a session per
// connection or none, the kind of reply it asks for and accepts, and what one
// unit of load is (a tools/call echo of either era, a server/discover, or an
// input_required round trip of two POSTs).

#include <string>
#include <string_view>

namespace loadgen {

enum class reply_style { json, sse };

/// What a worker sends and checks as one unit of load.
enum class http_unit {
  echo,         ///< tools/call echo, 2025 era (in a session, or stateless)
  modern_echo,  ///< tools/call echo, 2026-07-28
  discover,     ///< server/discover, 2026-07-28
  input_round,  ///< tools/call confirm, answered input_required, then its retry with the answer: two POSTs
};

struct http_mode {
  bool sessions = true;  ///< initialize + initialized first on each connection
  std::string_view accept;
  reply_style style = reply_style::json;
  http_unit unit = http_unit::echo;
  /// 2026-07-28: the request metadata headers every POST of the unit carries
  /// (MCP-Protocol-Version, Mcp-Method, Mcp-Name), CRLF between them; empty
  /// in the 2025 era.
  std::string routing_headers;
};

/// "stateful-json", "stateful-sse" (SSE listed first in Accept, so a server
/// that may choose answers with a stream), "stateless"; the 2026-07-28 era's
/// "modern-json", "modern-sse" (tools/call echo), "discover" and
/// "input-required" (JSON replies); throws otherwise.
http_mode parse_http_mode(std::string_view name);

}  // namespace loadgen
