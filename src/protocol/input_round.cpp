#include "input_round.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"
#include "invalid_params.hpp"
#include "read_params.hpp"
#include "modern_era.hpp"

namespace mcp::detail {

bool answers_input(std::string_view method, const json::value& answer) {
  if (method == methods::elicitation_create) {
    const auto result = read_if<elicit_result>(answer);
    return result && (result->action == "accept" || result->action == "decline" || result->action == "cancel");
  }
  if (method == methods::sampling_create_message) {
    const auto result = read_if<create_message_result>(answer);
    return result && (result->content.is_object() || result->content.is_array());
  }
  if (method == methods::roots_list) return read_if<list_roots_result>(answer).has_value();
  return false;
}

bool is_input_request(std::string_view method) noexcept {
  const auto* known = find_method(method);
  return known && !known->as_input.empty();
}

std::string_view capability_for(std::string_view method) noexcept {
  if (method == methods::elicitation_create) return "elicitation";
  if (method == methods::sampling_create_message) return "sampling";
  return "roots";
}

bool declares_capability_for(std::string_view method, const json::object& client_capabilities) noexcept {
  return object_at(client_capabilities, {capability_for(method)}) != nullptr;
}

std::optional<std::string> legacy_input_refusal(std::string_view method, const json::object& params,
                                                const dialect& d, const json::object& client_capabilities) {
  if (method == methods::elicitation_create) {
    if (!d.elicitation) return "elicitation needs protocol version 2025-06-18 or later";
    const auto* mode = params.if_contains("mode");
    if (mode && *mode == "url") {
      if (!d.url_elicitation) return "URL elicitation needs protocol version 2025-11-25 or later";
      if (!object_at(client_capabilities, {"elicitation", "url"}))
        return "the client does not support URL elicitation";
    }
  }
  if (!declares_capability_for(method, client_capabilities))
    return "the client does not support " + std::string(capability_for(method));
  return std::nullopt;
}

namespace {

// The members of a 2026-07-28 request's envelope that carry a multi-round
// request from one round to the next (mrtr).
struct round_members {
  std::optional<json::object> input_responses;  // the answers, by the keys of the inputRequests
  std::optional<std::string> request_state;     // sealed by us in the round before
};
BOOST_DESCRIBE_STRUCT(round_members, (), (input_responses, request_state))
[[maybe_unused]] auto mcp_fields(type_t<round_members>) {
  return std::tuple{field(&round_members::input_responses).key("inputResponses"),
                    field(&round_members::request_state).key("requestState")};
}

}  // namespace

bool accepts_input(std::string_view method) noexcept {
  return method == methods::tools_call || method == methods::prompts_get || method == methods::resources_read;
}

std::unique_ptr<input_round> input_rounds::open(const request& req, std::string_view principal) const {
  auto round = std::make_unique<input_round>();
  round->accepts_input = accepts_input(req.method);
  if (!round->accepts_input) return round;
  auto members = read_params<round_members>(req.params);
  if (members.input_responses) round->given = std::move(*members.input_responses);
  if (members.request_state) {
    auto opened = states_.open(*members.request_state, request_binding(req.method, req.params, principal));
    if (!opened)
      invalid_params("requestState is not valid for this request: altered, expired, or issued for "
                     "another request or client");
    round->answers = std::move(opened->answers);
    round->carried = std::move(opened->carried);
  }
  return round;
}

json::object input_rounds::input_required(const request& req, json::object input_requests,
                                          const input_round& round, std::string_view principal,
                                          json::object server_info) const {
  const bool asks = !input_requests.empty();
  input_required_members members;
  if (asks) members.input_requests = std::move(input_requests);
  // The state carries what the next round needs; a round without input
  // requests must carry one (mrtr, "Server Requirements").
  if (!round.answers.empty() || !round.carried.is_null() || !asks)
    members.request_state =
        states_.seal({round.answers, round.carried}, request_binding(req.method, req.params, principal));
  auto result = input_required_result(std::move(members));
  meta_of(result)[meta_key::server_info] = std::move(server_info);
  return result;
}

}  // namespace mcp::detail
