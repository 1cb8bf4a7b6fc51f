#include "messages.hpp"

namespace loadgen {

std::string initialize_request(std::int64_t id) {
  std::string text = R"({"jsonrpc":"2.0","id":)";
  text += std::to_string(id);
  text += R"(,"method":"initialize","params":{"protocolVersion":")";
  text += protocol_version;
  text += R"(","capabilities":{},"clientInfo":{"name":"caduceus-bench","version":"1.0.0"}}})";
  return text;
}

std::string initialized_notification() {
  return R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
}

std::string echo_call(std::int64_t id) {
  std::string text = R"({"jsonrpc":"2.0","id":)";
  text += std::to_string(id);
  text += R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":")";
  text += echo_text(id);
  text += R"("}}})";
  return text;
}

std::string echo_text(std::int64_t id) { return "bench " + std::to_string(id); }

std::string long_task_call(std::int64_t id, int steps, int step_ms) {
  const auto n = std::to_string(id);
  return R"({"jsonrpc":"2.0","id":)" + n + R"(,"method":"tools/call","params":{"name":"long_task","arguments":{"steps":)" +
         std::to_string(steps) + R"(,"step_ms":)" + std::to_string(step_ms) + R"(},"_meta":{"progressToken":"p)" + n +
         R"("}}})";
}

std::string cancelled_notification(std::int64_t id) {
  return R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":)" + std::to_string(id) +
         R"(,"reason":"soak"}})";
}

}  // namespace loadgen
