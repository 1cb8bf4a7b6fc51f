#include "rounds.hpp"

#include <mcp/protocol/wire.hpp>

namespace caduceus::gateway {

namespace {

// The key of the upstream's round in the request's carried value.
constexpr std::string_view upstream_round_key = "caduceusGatewayRound";
// Rounds the upstream may ask for again with answers the client already gave.
constexpr int max_rounds_in_one_request = 8;

// What an InputRequiredResult asks, as request_context::ask takes it.
mcp::input_requests asked_in(const json::object& input_requests) {
  mcp::input_requests asked;
  for (const auto& [key, value] : input_requests)
    asked.emplace(std::string(key), mcp::from_json<mcp::input_request>(value));
  return asked;
}

// The round the client's retry answers, from the carried value; null when
// this is the request's first round.
const json::object* upstream_round(const mcp::request_context& ctx) {
  const auto* carried = ctx.carried().if_object();
  const auto* round = carried ? carried->if_contains(upstream_round_key) : nullptr;
  return round && round->is_object() ? &round->get_object() : nullptr;
}

json::object input_requests_of(const json::object& round) {
  const auto* asked = round.if_contains("inputRequests");
  return asked && asked->is_object() ? asked->get_object() : json::object();
}

// The request's params for the upstream's next round: the client's answers,
// and the state the upstream gave with its question.
asio::awaitable<void> answer_round(json::object& params, const json::object& round, mcp::request_context& ctx) {
  auto answers = co_await ctx.ask(asked_in(input_requests_of(round)));  // input_required until answered
  json::object responses;
  for (auto& [key, answer] : answers) responses[key] = std::move(answer);
  params["inputResponses"] = std::move(responses);
  if (const auto* state = round.if_contains("requestState")) params["requestState"] = *state;
  else params.erase("requestState");
}

}  // namespace

asio::awaitable<json::object> serve_rounds(upstream_link& link, const mcp::request& req, mcp::request_context& ctx) {
  // The client's inputResponses and requestState are the gateway's (its engine
  // read them); the upstream's own go in their place.
  auto params = req.params;
  params.erase("inputResponses");
  params.erase("requestState");
  if (const auto* round = upstream_round(ctx)) co_await answer_round(params, *round, ctx);
  for (int rounds = 0; rounds < max_rounds_in_one_request; ++rounds) {
    auto result = co_await link.forward_round(req.method, params, ctx);
    const auto* type = result.if_contains("resultType");
    if (!type || *type != "input_required") co_return result;
    json::object round{{"inputRequests", input_requests_of(result)}};
    if (const auto* state = result.if_contains("requestState")) round["requestState"] = *state;
    ctx.carry(json::object{{upstream_round_key, round}});
    co_await answer_round(params, round, ctx);  // (answered already: the client gave these keys before)
  }
  throw mcp::protocol_error(mcp::errc::internal_error,
                            "the upstream server asked again for input the client had given, " +
                                std::to_string(max_rounds_in_one_request) + " times; giving up");
}

}  // namespace caduceus::gateway
