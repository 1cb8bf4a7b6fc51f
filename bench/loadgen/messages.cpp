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

}  // namespace loadgen
