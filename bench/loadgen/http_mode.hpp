#pragma once
// The Streamable HTTP modes the generator drives: with a session per
// connection or none, and the kind of reply it asks for and accepts.

#include <string_view>

namespace loadgen {

enum class reply_style { json, sse };

struct http_mode {
  bool sessions = true;  ///< initialize + initialized first on each connection
  std::string_view accept;
  reply_style style = reply_style::json;
};

/// "stateful-json", "stateful-sse" (SSE listed first in Accept, so a server
/// that may choose answers with a stream) or "stateless"; throws otherwise.
http_mode parse_http_mode(std::string_view name);

}  // namespace loadgen
