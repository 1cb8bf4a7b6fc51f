#pragma once
// The 2026-07-28 texts of the listen scenario (the echo calls' are in
// messages.hpp, the headers of theirs in http_mode.hpp). No initialize: every request
// carries its envelope in `_meta` (protocol version, client info, client
// capabilities), and its POST the routing headers (MCP-Protocol-Version,
// Mcp-Method, and Mcp-Name for tools/call).

#include "http_connection.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace loadgen {

/// `subscriptions/listen` for `notifications/tools/list_changed` only.
std::string listen_request(std::int64_t id);
/// `tools/call toggle_bonus` (everything-server: adds or removes a tool, so
/// every tools listener hears of it).
std::string toggle_bonus_call(std::int64_t id);

/// The HTTP request text of a POST of `body` (a request whose method is
/// `method`, and `name` for tools/call, else empty), asking for JSON first.
std::string modern_post(const http_target& target, std::string_view method, std::string_view name,
                        std::string_view body);

}  // namespace loadgen
