#include "modern_messages.hpp"

#include "messages.hpp"

namespace loadgen {

namespace {

// params._meta of every request: no client capabilities (a listener asks
// nothing of its user).
std::string envelope() { return modern_envelope("{}"); }

}  // namespace

std::string listen_request(std::int64_t id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"subscriptions/listen","params":{)" +
         envelope() + R"(,"notifications":{"toolsListChanged":true}}})";
}

std::string toggle_bonus_call(std::int64_t id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) +
         R"(,"method":"tools/call","params":{"name":"toggle_bonus","arguments":{},)" + envelope() + "}}";
}

std::string modern_post(const http_target& target, std::string_view method, std::string_view name,
                        std::string_view body) {
  std::string text = "POST " + target.path + " HTTP/1.1\r\nHost: " + target.host_header;
  text += "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream";
  text += "\r\nMCP-Protocol-Version: ";
  text += modern_protocol_version;
  text += "\r\nMcp-Method: ";
  text += method;
  if (!name.empty()) {
    text += "\r\nMcp-Name: ";
    text += name;
  }
  text += "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  text += body;
  return text;
}

}  // namespace loadgen
