#pragma once
// Checks one JSON-RPC reply text against the request it answers. Every reply
// the generator receives goes through here; a problem is counted as an error.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loadgen {

/// What answers the generator, and so what a correct reply is.
enum class peer_kind {
  mcp,    ///< an MCP server: the real result, with our id and our text
  fixed,  ///< the Beast ceiling: the same JSON-RPC result whatever we send
  echo,   ///< the line-echo ceiling: our own request back
};

peer_kind parse_peer_kind(std::string_view name);  ///< "mcp", "fixed", "echo"; throws otherwise

/// The integer id a reply seems to carry, found without parsing it (a
/// pipelining reader uses it to pick the request to check the reply against;
/// the check itself parses the reply and compares the id).
std::optional<std::int64_t> peek_id(std::string_view text);

/// The reply to initialize_request(id); std::nullopt when it is right,
/// else what is wrong with it.
std::optional<std::string> check_initialize_reply(std::string_view text, std::int64_t id, peer_kind peer);
/// The reply to echo_call(id).
std::optional<std::string> check_echo_reply(std::string_view text, std::int64_t id, peer_kind peer);

}  // namespace loadgen
