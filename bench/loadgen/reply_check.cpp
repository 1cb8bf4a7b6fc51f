#include "reply_check.hpp"

#include "messages.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <stdexcept>

namespace loadgen {

namespace json = boost::json;

namespace {

bool is_string(const json::value* value, std::string_view expected) {
  return value && value->is_string() && value->get_string() == expected;
}

// Parses a JSON-RPC 2.0 object; sets `problem` when it is not one.
std::optional<json::object> parse_message(std::string_view text, std::string& problem) {
  boost::system::error_code ec;
  json::value value = json::parse(text, ec);
  if (ec) {
    problem = "not JSON: " + std::string(text.substr(0, 120));
    return std::nullopt;
  }
  auto* object = value.if_object();
  if (!object || !is_string(object->if_contains("jsonrpc"), "2.0")) {
    problem = "not a JSON-RPC 2.0 message: " + std::string(text.substr(0, 120));
    return std::nullopt;
  }
  return std::move(*object);
}

bool has_id(const json::object& message, std::int64_t id) {
  const json::value* got = message.if_contains("id");
  return got && got->is_int64() && got->as_int64() == id;
}

// The result object of a successful reply to request `id`, or a problem.
const json::object* result_of(const json::object& message, std::int64_t id, std::string& problem) {
  if (!has_id(message, id)) {
    problem = "wrong or missing id, expected " + std::to_string(id) + ": " + json::serialize(message);
    return nullptr;
  }
  const json::value* result = message.if_contains("result");
  if (!result || !result->is_object()) {
    problem = "no result: " + json::serialize(message);
    return nullptr;
  }
  return &result->get_object();
}

std::optional<std::string> check_echoed_request(const json::object& message, std::int64_t id) {
  if (!has_id(message, id) || !message.contains("method"))
    return "not our request echoed back: " + json::serialize(message);
  return std::nullopt;
}

std::optional<std::string> check_fixed_result(const json::object& message) {
  if (!message.contains("result")) return "no result: " + json::serialize(message);
  return std::nullopt;
}

// Parses the reply `text` to request `id` and checks it: a ceiling's reply
// whole, an MCP reply's envelope here and its result with `check_result`.
template <class CheckResult>
std::optional<std::string> check_reply(std::string_view text, std::int64_t id, peer_kind peer,
                                       CheckResult check_result) {
  std::string problem;
  auto message = parse_message(text, problem);
  if (!message) return problem;
  if (peer == peer_kind::echo) return check_echoed_request(*message, id);
  if (peer == peer_kind::fixed) return check_fixed_result(*message);
  const json::object* result = result_of(*message, id, problem);
  if (!result) return problem;
  return check_result(*result, *message);
}

}  // namespace

peer_kind parse_peer_kind(std::string_view name) {
  if (name == "mcp") return peer_kind::mcp;
  if (name == "fixed") return peer_kind::fixed;
  if (name == "echo") return peer_kind::echo;
  throw std::invalid_argument("unknown peer kind: " + std::string(name));
}

std::optional<std::int64_t> peek_id(std::string_view text) {
  constexpr std::string_view key = R"("id":)";
  const auto at = text.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::int64_t id = 0;
  const char* first = text.data() + at + key.size();
  const auto [end, error] = std::from_chars(first, text.data() + text.size(), id);
  if (error != std::errc{} || end == first) return std::nullopt;
  return id;
}

std::optional<std::string> check_initialize_reply(std::string_view text, std::int64_t id, peer_kind peer) {
  return check_reply(text, id, peer, [](const json::object& result, const json::object& message) -> std::optional<std::string> {
    const json::value* version = result.if_contains("protocolVersion");
    if (!version || !version->is_string() || !result.contains("serverInfo"))
      return "not an initialize result: " + json::serialize(message);
    return std::nullopt;
  });
}

std::optional<std::string> check_echo_reply(std::string_view text, std::int64_t id, peer_kind peer) {
  return check_reply(text, id, peer, [id](const json::object& result, const json::object& message) -> std::optional<std::string> {
    const json::value* is_error = result.if_contains("isError");
    if (is_error && is_error->is_bool() && is_error->get_bool()) return "tool error: " + json::serialize(message);
    const json::value* content = result.if_contains("content");
    const json::array* items = content ? content->if_array() : nullptr;
    const json::object* first = items && !items->empty() ? items->front().if_object() : nullptr;
    if (!first || !is_string(first->if_contains("type"), "text") ||
        !is_string(first->if_contains("text"), echo_text(id)))
      return "wrong echo result: " + json::serialize(message);
    return std::nullopt;
  });
}

}  // namespace loadgen
