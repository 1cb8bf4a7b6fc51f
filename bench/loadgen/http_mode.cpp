#include "http_mode.hpp"

#include <stdexcept>
#include <string>

namespace loadgen {

namespace {
constexpr std::string_view json_first = "application/json, text/event-stream";
constexpr std::string_view sse_first = "text/event-stream, application/json";
}  // namespace

http_mode parse_http_mode(std::string_view name) {
  if (name == "stateful-json") return {true, json_first, reply_style::json};
  if (name == "stateful-sse") return {true, sse_first, reply_style::sse};
  if (name == "stateless") return {false, json_first, reply_style::json};
  throw std::invalid_argument("unknown HTTP mode: " + std::string(name));
}

}  // namespace loadgen
