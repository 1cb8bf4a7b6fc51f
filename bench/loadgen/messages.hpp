#pragma once
// The JSON-RPC texts the load generator sends, and what an echo reply must
// carry back.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loadgen {

/// The protocol version every session offers and every later request names.
inline constexpr std::string_view protocol_version = "2025-11-25";
/// The revision of the 2026-07-28 era, which every request of that era names
/// in its envelope (and over HTTP in its MCP-Protocol-Version header).
inline constexpr std::string_view modern_protocol_version = "2026-07-28";
/// `"_meta":{...}`, the envelope of a 2026-07-28 request, declaring the
/// client capabilities given (a JSON object).
std::string modern_envelope(std::string_view client_capabilities);

/// Ids unique across the whole run (one thread).
class request_ids {
 public:
  std::int64_t next() { return ++last_; }

 private:
  std::int64_t last_ = 0;
};

std::string initialize_request(std::int64_t id);
std::string initialized_notification();
/// `tools/call echo` with the text echo_text(id).
std::string echo_call(std::int64_t id);
/// The text an echo call with this id sends, so every reply is unique.
std::string echo_text(std::int64_t id);
/// `tools/call long_task` (everything-server: `steps` steps of `step_ms`,
/// progress after each) with a progress token.
std::string long_task_call(std::int64_t id, int steps, int step_ms);
/// notifications/cancelled for the request `id`.
std::string cancelled_notification(std::int64_t id);

// The 2026-07-28 era: no initialize; every request carries its envelope in
// params._meta (the protocol version, clientInfo, and clientCapabilities
// declaring elicitation, as a client that can ask its user declares on every
// request).

/// echo_call(id) with its envelope.
std::string modern_echo_call(std::int64_t id);
/// `server/discover` with its envelope.
std::string discover_request(std::int64_t id);
/// The question confirm_call asks the user.
inline constexpr std::string_view confirm_question = "Proceed?";
/// `tools/call confirm` (everything-server: asks the user through
/// elicitation, so a 2026 request gets an input_required result first).
std::string confirm_call(std::int64_t id);
/// Its retry: the user's answer to the server's input `input_key` (accept,
/// confirm true) in inputResponses, and `request_state` as the server gave it
/// (none when it gave none).
std::string confirm_retry(std::int64_t id, std::string_view input_key, const std::optional<std::string>& request_state);
/// What confirm answers once the user has accepted.
inline constexpr std::string_view confirmed_text = "action=accept, confirm=true";

}  // namespace loadgen
