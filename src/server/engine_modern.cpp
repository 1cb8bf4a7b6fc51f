// The 2026-07-28 era in the server engine: no handshake and no session.
// Every request is served from its own envelope (`_meta`, basic/index
// "Per-request protocol fields") in a session made for it alone; results
// carry `resultType`, caching hints and serverInfo; and a handler that
// needs input from the client ends its round with an InputRequiredResult
// whose requestState, signed, carries what the next round needs (MRTR).

#include "engine.hpp"

#include <mcp/log.hpp>

#include <array>
#include <string_view>

namespace mcp::detail {

namespace {

// Legacy methods the modern era does not have (its lifecycle, logging and
// subscriptions moved into the envelope and subscriptions/listen).
constexpr std::array<std::string_view, 5> removed_methods{
    "initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"};

// Results that carry caching hints (server/utilities/caching).
constexpr std::array<std::string_view, 6> cacheable_methods{
    "server/discover", "tools/list", "prompts/list", "resources/list", "resources/templates/list",
    "resources/read"};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

json::object& meta_of(json::object& result) {
  auto& meta = result["_meta"];
  if (!meta.is_object()) meta = json::object{};
  return meta.get_object();
}

[[noreturn]] void invalid_params(std::string message) {
  throw protocol_error(errc::invalid_params, "Invalid params: " + std::move(message));
}

}  // namespace

frame_context::refusal server_engine::refusal_of(const message& reply) {
  const auto* failed = std::get_if<error_response>(&reply);
  if (!failed) return frame_context::refusal::none;
  switch (failed->error.code) {
    case errc::method_not_found:
      return frame_context::refusal::unknown_method;
    case errc::header_mismatch:
    case errc::missing_client_capability:
    case errc::unsupported_protocol_version:
      return frame_context::refusal::invalid_request;
    default:
      return frame_context::refusal::none;
  }
}

void server_engine::handle_modern_request(request req) {
  const auto id = req.id;
  try {
    auto envelope = read_envelope(req.params);
    const auto version = envelope_version(envelope, behaviour_.supported_versions());
    if (one_of(removed_methods, req.method))
      throw protocol_error(errc::method_not_found, "Method not found: " + req.method +
                                                       " is not part of protocol version " +
                                                       std::string(to_string(version)));
    if (in_flight_.contains(req.id))
      throw protocol_error(errc::invalid_request, "Invalid Request: request id " + to_string(req.id) +
                                                      " is already in use by a running request");
    if (req.method == "server/discover") {
      answer(response{req.id, finish_modern_result(req, discover())}, nullptr);
      return;
    }
    auto round = open_round(req, envelope);
    auto s = make_request_session(envelope, version);
    serve(std::move(req), nullptr, std::move(s), std::move(round));
  } catch (const protocol_error& e) {
    // Refused before any handler ran: the envelope, the version, the method,
    // or the requestState.
    answer(error_response{id, e.error()}, nullptr,
           e.code() == errc::method_not_found ? frame_context::refusal::unknown_method
                                              : frame_context::refusal::invalid_request);
  }
}

std::shared_ptr<session> server_engine::make_request_session(request_envelope& envelope,
                                                             protocol_version version) {
  auto s = std::make_shared<session>(session_->id() + "/" + std::to_string(++modern_requests_),
                                     transport_.get_executor());
  s->transport_ = session_->transport_;
  s->version_ = version;
  if (envelope.client_info) s->client_info_ = std::move(*envelope.client_info);
  s->client_capabilities_ = std::move(envelope.client_capabilities);
  s->log_level_ = envelope.log_level;
  s->per_request_ = true;
  s->link_ = session_->link_;
  return s;
}

std::unique_ptr<input_round> server_engine::open_round(const request& req,
                                                       request_envelope& envelope) const {
  auto round = std::make_unique<input_round>();
  round->client_capabilities = envelope.client_capabilities;
  round->trace = std::move(envelope.trace);
  round->accepts_input = accepts_input(req.method);
  if (!round->accepts_input) return round;
  if (const auto* given = req.params.if_contains("inputResponses"); given && !given->is_null()) {
    if (!given->is_object()) invalid_params("inputResponses must be an object");
    round->given = given->get_object();
  }
  if (const auto* state = req.params.if_contains("requestState"); state && !state->is_null()) {
    if (!state->is_string()) invalid_params("requestState must be a string");
    auto opened = request_states_.open(state->get_string(), bind_state(req));
    if (!opened)
      invalid_params("requestState is not valid for this request: altered, expired, or issued for "
                     "another request or client");
    round->answers = std::move(opened->answers);
    round->carried = std::move(opened->carried);
  }
  return round;
}

std::string server_engine::bind_state(const request& req) const {
  // The client's credentials stand for its principal: state issued to one
  // token is refused with another.
  const auto credentials = session_->transport().headers.find("authorization");
  return request_binding(req.method, req.params, credentials.value_or(std::string_view{}));
}

json::object server_engine::discover() const {
  json::array versions;
  for (const auto v : behaviour_.supported_versions())
    if (dialect_of(v).era == protocol_era::modern) versions.emplace_back(to_string(v));
  const auto& d = dialect_of(protocol_version::v2026_07_28);
  json::object result{{"supportedVersions", std::move(versions)},
                      {"capabilities", shape_capabilities(behaviour_.capabilities(), d)}};
  if (auto instructions = behaviour_.instructions()) result["instructions"] = std::move(*instructions);
  return result;
}

json::object server_engine::finish_modern_result(const request& req, json::object result) const {
  if (!result.contains("resultType")) result["resultType"] = "complete";
  if (one_of(cacheable_methods, req.method)) {
    // A retry of a multi-round request depends on inputs outside the cache key.
    const bool retried = req.params.contains("inputResponses") || req.params.contains("requestState");
    if (retried || !result.contains("ttlMs")) result["ttlMs"] = 0;
    if (retried || !result.contains("cacheScope")) result["cacheScope"] = "private";
  }
  auto& meta = meta_of(result);
  if (!meta.contains(meta_key::server_info))
    meta[meta_key::server_info] = to_json(behaviour_.server_info(), dialect_of(protocol_version::v2026_07_28));
  return result;
}

message server_engine::input_required_reply(const request& req, const input_required& need,
                                            const input_round& round) const {
  json::object requests;
  for (const auto& [key, input] : need.requests)
    requests[key] = json::object{{"method", input.method}, {"params", input.params}};
  json::object result{{"resultType", "input_required"}};
  if (!requests.empty()) result["inputRequests"] = std::move(requests);
  // The state carries what the next round needs; a round without input
  // requests must carry one (mrtr, "Server Requirements").
  if (!round.answers.empty() || !round.carried.is_null() || need.requests.empty())
    result["requestState"] =
        request_states_.seal({round.answers, round.carried}, bind_state(req));
  meta_of(result)[meta_key::server_info] =
      to_json(behaviour_.server_info(), dialect_of(protocol_version::v2026_07_28));
  return response{req.id, std::move(result)};
}

}  // namespace mcp::detail
