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

// The 2026-07-28 era (messages.hpp): every result names its resultType.

/// The reply to modern_echo_call(id): check_echo_reply's, resultType "complete".
std::optional<std::string> check_modern_echo_reply(std::string_view text, std::int64_t id, peer_kind peer);
/// The reply to discover_request(id): complete, the 2026-07-28 revision among
/// supportedVersions, a tools capability, and serverInfo (name and version)
/// in _meta.
std::optional<std::string> check_discover_reply(std::string_view text, std::int64_t id, peer_kind peer);

/// What the first round of confirm_call asked for, for its retry.
struct input_round {
  std::string input_key;                     ///< the key of the one elicitation asked
  std::optional<std::string> request_state;  ///< to send back as it is (none: none given)
};
/// The reply to confirm_call(id): input_required, with inputRequests holding
/// one elicitation/create (form mode, confirm_question, a requestedSchema), and
/// a requestState when there is one (a non-empty string); fills `round`
/// (left empty for a ceiling).
std::optional<std::string> check_input_required_reply(std::string_view text, std::int64_t id, peer_kind peer,
                                                      input_round& round);
/// The reply to confirm_retry(id, ...): complete, with the text confirmed_text.
std::optional<std::string> check_confirmed_reply(std::string_view text, std::int64_t id, peer_kind peer);

}  // namespace loadgen
