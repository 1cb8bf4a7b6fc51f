#pragma once
// The JSON-RPC texts the load generator sends, and what an echo reply must
// carry back.

#include <cstdint>
#include <string>
#include <string_view>

namespace loadgen {

/// The protocol version every session offers and every later request names.
inline constexpr std::string_view protocol_version = "2025-11-25";

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

}  // namespace loadgen
