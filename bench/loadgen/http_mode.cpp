#include "http_mode.hpp"

#include "messages.hpp"

#include <stdexcept>
#include <string>

namespace loadgen {

namespace {

constexpr std::string_view json_first = "application/json, text/event-stream";
constexpr std::string_view sse_first = "text/event-stream, application/json";

// The request metadata headers of a 2026-07-28 POST of `method` (and `name`,
// for tools/call).
std::string routing(std::string_view method, std::string_view name = {}) {
  std::string headers = "MCP-Protocol-Version: " + std::string(modern_protocol_version) + "\r\nMcp-Method: ";
  headers += method;
  if (!name.empty()) {
    headers += "\r\nMcp-Name: ";
    headers += name;
  }
  return headers;
}

}  // namespace

http_mode parse_http_mode(std::string_view name) {
  if (name == "stateful-json") return {true, json_first, reply_style::json, http_unit::echo, {}};
  if (name == "stateful-sse") return {true, sse_first, reply_style::sse, http_unit::echo, {}};
  if (name == "stateless") return {false, json_first, reply_style::json, http_unit::echo, {}};
  if (name == "modern-json")
    return {false, json_first, reply_style::json, http_unit::modern_echo, routing("tools/call", "echo")};
  if (name == "modern-sse")
    return {false, sse_first, reply_style::sse, http_unit::modern_echo, routing("tools/call", "echo")};
  if (name == "discover")
    return {false, json_first, reply_style::json, http_unit::discover, routing("server/discover")};
  if (name == "input-required")
    return {false, json_first, reply_style::json, http_unit::input_round, routing("tools/call", "confirm")};
  throw std::invalid_argument("unknown HTTP mode: " + std::string(name));
}

}  // namespace loadgen
