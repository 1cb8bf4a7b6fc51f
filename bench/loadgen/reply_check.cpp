#include "reply_check.hpp"

#include "messages.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
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

// A tool's result whose first content block is the text `expected`.
std::optional<std::string> check_text_result(const json::object& result, const json::object& message,
                                             std::string_view expected) {
  const json::value* is_error = result.if_contains("isError");
  if (is_error && is_error->is_bool() && is_error->get_bool()) return "tool error: " + json::serialize(message);
  const json::value* content = result.if_contains("content");
  const json::array* items = content ? content->if_array() : nullptr;
  const json::object* first = items && !items->empty() ? items->front().if_object() : nullptr;
  if (!first || !is_string(first->if_contains("type"), "text") || !is_string(first->if_contains("text"), expected))
    return "wrong tool result: " + json::serialize(message);
  return std::nullopt;
}

// A 2026-07-28 result of the type `expected` ("complete", "input_required").
std::optional<std::string> check_result_type(const json::object& result, const json::object& message,
                                             std::string_view expected) {
  if (!is_string(result.if_contains("resultType"), expected))
    return "not a resultType " + std::string(expected) + " result: " + json::serialize(message);
  return std::nullopt;
}

// The object `key` of the result's _meta, if there is one.
const json::object* meta_object(const json::object& result, std::string_view key) {
  const json::value* meta = result.if_contains("_meta");
  const json::value* value = meta && meta->is_object() ? meta->get_object().if_contains(key) : nullptr;
  return value ? value->if_object() : nullptr;
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
  return check_reply(text, id, peer, [id](const json::object& result, const json::object& message) {
    return check_text_result(result, message, echo_text(id));
  });
}

std::optional<std::string> check_modern_echo_reply(std::string_view text, std::int64_t id, peer_kind peer) {
  return check_reply(text, id, peer, [id](const json::object& result, const json::object& message) {
    if (auto problem = check_result_type(result, message, "complete")) return problem;
    return check_text_result(result, message, echo_text(id));
  });
}

std::optional<std::string> check_discover_reply(std::string_view text, std::int64_t id, peer_kind peer) {
  return check_reply(text, id, peer, [](const json::object& result,
                                        const json::object& message) -> std::optional<std::string> {
    if (auto problem = check_result_type(result, message, "complete")) return problem;
    const json::value* versions = result.if_contains("supportedVersions");
    const json::array* listed = versions ? versions->if_array() : nullptr;
    const bool names_ours = listed && std::any_of(listed->begin(), listed->end(), [](const json::value& version) {
                              return is_string(&version, modern_protocol_version);
                            });
    const json::value* capabilities = result.if_contains("capabilities");
    const bool has_tools = capabilities && capabilities->is_object() && capabilities->get_object().contains("tools");
    const json::object* server_info = meta_object(result, "io.modelcontextprotocol/serverInfo");
    const bool names_server = server_info && server_info->contains("name") && server_info->contains("version");
    if (!names_ours || !has_tools || !names_server)
      return "not a discover result for " + std::string(modern_protocol_version) + " with tools: " +
             json::serialize(message);
    return std::nullopt;
  });
}

std::optional<std::string> check_input_required_reply(std::string_view text, std::int64_t id, peer_kind peer,
                                                      input_round& round) {
  return check_reply(text, id, peer, [&round](const json::object& result,
                                              const json::object& message) -> std::optional<std::string> {
    if (auto problem = check_result_type(result, message, "input_required")) return problem;
    const json::value* requests = result.if_contains("inputRequests");
    const json::object* asked = requests ? requests->if_object() : nullptr;
    if (!asked || asked->size() != 1) return "not one input asked for: " + json::serialize(message);
    const auto& [key, request] = *asked->begin();
    const json::object* elicit = request.if_object();
    const json::value* params = elicit ? elicit->if_contains("params") : nullptr;
    const json::object* form = params ? params->if_object() : nullptr;
    if (!elicit || !is_string(elicit->if_contains("method"), "elicitation/create") || !form ||
        !is_string(form->if_contains("mode"), "form") || !is_string(form->if_contains("message"), confirm_question) ||
        !form->contains("requestedSchema"))
      return "not the confirm elicitation: " + json::serialize(message);
    round.input_key = key;
    if (const json::value* state = result.if_contains("requestState")) {
      if (!state->is_string() || state->get_string().empty())
        return "a requestState that is not a non-empty string: " + json::serialize(message);
      round.request_state = std::string(state->get_string());
    }
    return std::nullopt;
  });
}

std::optional<std::string> check_confirmed_reply(std::string_view text, std::int64_t id, peer_kind peer) {
  return check_reply(text, id, peer, [](const json::object& result, const json::object& message) {
    if (auto problem = check_result_type(result, message, "complete")) return problem;
    return check_text_result(result, message, confirmed_text);
  });
}

}  // namespace loadgen
