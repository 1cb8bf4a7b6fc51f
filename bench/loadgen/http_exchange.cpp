#include "http_exchange.hpp"

#include "http_reply_check.hpp"

namespace loadgen {

namespace {

// A unit of one POST: its request, and the check of its reply.
struct single_post {
  std::string (*request)(std::int64_t id);
  std::optional<std::string> (*check)(std::string_view text, std::int64_t id, peer_kind peer);
};

single_post single_post_of(http_unit unit) {
  if (unit == http_unit::echo) return {echo_call, check_echo_reply};
  if (unit == http_unit::modern_echo) return {modern_echo_call, check_modern_echo_reply};
  return {discover_request, check_discover_reply};
}

}  // namespace

http_exchange::http_exchange(http_connection& connection, const http_mode& mode, peer_kind peer,
                             std::string session_id)
    : connection_(connection), mode_(mode), peer_(peer), session_id_(std::move(session_id)),
      accept_and_routing_(mode.accept) {
  if (!mode.routing_headers.empty()) {
    accept_and_routing_ += "\r\n";
    accept_and_routing_ += mode.routing_headers;
  }
}

asio::awaitable<std::optional<std::string>> http_exchange::post(const std::string& body, std::string& problem) {
  // (A 2025 request names its version in MCP-Protocol-Version; a 2026 one has it among its routing headers.)
  const bool modern = !mode_.routing_headers.empty();
  const post_headers headers{accept_and_routing_, session_id_, !modern};
  http_reply reply = co_await connection_.post(body, headers);
  if (modern && !reply.session_id.empty()) {
    problem = "a 2026-07-28 reply with an Mcp-Session-Id: " + reply.session_id;
    co_return std::nullopt;
  }
  co_return message_of(reply, mode_.style, problem);
}

asio::awaitable<std::string> http_exchange::run(request_ids& ids) {
  if (mode_.unit == http_unit::input_round) co_return co_await input_round_trip(ids);
  const single_post unit = single_post_of(mode_.unit);
  const std::int64_t id = ids.next();
  const std::string body = unit.request(id);
  std::string problem;
  const auto message = co_await post(body, problem);
  if (!message) co_return problem;
  co_return unit.check(*message, id, peer_).value_or("");
}

asio::awaitable<std::string> http_exchange::input_round_trip(request_ids& ids) {
  std::string problem;
  const std::int64_t first_id = ids.next();
  const std::string first = confirm_call(first_id);
  const auto asked = co_await post(first, problem);
  if (!asked) co_return "first round: " + problem;
  input_round round;
  if (auto wrong = check_input_required_reply(*asked, first_id, peer_, round)) co_return "first round: " + *wrong;
  const std::int64_t retry_id = ids.next();
  const std::string retry = confirm_retry(retry_id, round.input_key, round.request_state);
  const auto answered = co_await post(retry, problem);
  if (!answered) co_return "retry: " + problem;
  if (auto wrong = check_confirmed_reply(*answered, retry_id, peer_)) co_return "retry: " + *wrong;
  co_return "";
}

}  // namespace loadgen
