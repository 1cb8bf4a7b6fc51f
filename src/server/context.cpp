#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>
#include <mcp/server/behaviour.hpp>

#include "../detail/json_members.hpp"
#include "../protocol/input_round.hpp"
#include "../protocol/modern_era.hpp"
#include "../protocol/shaping.hpp"

#include <array>

namespace mcp {

namespace {

constexpr std::string_view elicitation_method = methods::elicitation_create;
constexpr std::string_view sampling_method = methods::sampling_create_message;
constexpr std::string_view roots_method = methods::roots_list;

void require_input_request(std::string_view method) {
  if (!detail::is_input_request(method)) throw mcp::invalid_argument("not an input request: " + std::string(method));
}

}  // namespace

input_request input_request::elicitation(std::string message, json::object requested_schema) {
  elicit_params form{"form", std::move(message), std::move(requested_schema)};
  return {std::string(elicitation_method), to_json_value(std::move(form)).as_object()};
}

input_request input_request::sampling(json::object params) {
  return {std::string(sampling_method), std::move(params)};
}

input_request input_request::roots() { return {std::string(roots_method), {}}; }

asio::awaitable<void> session::notify(std::string method, json::object params) {
  notification n{std::move(method), std::move(params)};
  co_await link_->send_notification(std::move(n), {});
}

void session::post_notification(std::string method, json::object params) {
  link_->post_notification(notification{std::move(method), std::move(params)}, {});
}

asio::awaitable<json::object> session::request(std::string method, json::object params,
                                               std::chrono::milliseconds timeout) {
  if (per_request_) throw capability_error("protocol version 2026-07-28 has no server-to-client request " + method +
                                           " outside a request");
  co_return co_await link_->send_request(std::move(method), std::move(params), timeout, {});
}

namespace {
// The shared state's key of the log level (a type's name never looks like it).
constexpr std::string_view log_level_key = "mcp/logLevel";
}  // namespace

void session::share_state(state_slot& slot, const detail::shared_state_codec& codec, void* value) {
  slot.shared = &codec;
  const auto* saved = shared_state_.if_contains(codec.key);
  if (!saved) return;
  try {
    codec.read(value, *saved);
  } catch (const std::exception& e) {
    // (A server of an older build, say: the state starts afresh here.)
    sdk_log(log_category::session, log_level::warn, "a session's saved state does not read",
            {{"session_id", id_}, {"state", codec.key}, {"error", e.what()}});
  }
}

void session::load_shared_state(const json::object& state) {
  shared_state_ = state;
  if (const auto* level = shared_state_.if_contains(log_level_key); level && level->is_string())
    log_level_ = parse_logging_level(level->get_string());
  for (auto& [type, slot] : state_)
    if (slot.shared) share_state(slot, *slot.shared, slot.value.get());
}

json::object session::changed_shared_state() {
  json::object changes;
  auto note = [&](std::string_view key, json::value now) {
    const auto* before = shared_state_.if_contains(key);
    if (before && *before == now) return;
    changes[key] = now;
    shared_state_[key] = std::move(now);
  };
  if (log_level_) note(log_level_key, json::string(to_string(*log_level_)));
  for (const auto& [type, slot] : state_)
    if (slot.shared) note(slot.shared->key, slot.shared->write(slot.value.get()));
  return changes;
}

void session::post_elicitation_complete(std::string elicitation_id) {
  // (A 2026-07-28 request's session has no URL-mode elicitation of this kind.)
  const auto& d = dialect_of(version_);
  if (!d.url_elicitation || d.era != protocol_era::legacy) return;
  post_notification(methods::notifications_elicitation_complete, {{"elicitationId", std::move(elicitation_id)}});
}

protocol_error url_elicitation_required(std::string message, std::string url, std::string elicitation_id) {
  json::object elicitation{{"mode", "url"},
                           {"elicitationId", std::move(elicitation_id)},
                           {"url", std::move(url)},
                           {"message", message}};
  json::object data{{"elicitations", json::array{std::move(elicitation)}}};
  return protocol_error(errc::url_elicitation_required, "URL elicitation required: " + message, std::move(data));
}

void session::post_broadcast(std::string method, json::object params) {
  link_->post_broadcast(notification{std::move(method), std::move(params)});
}

request_context::request_context(const mcp::request& req, mcp::session& s,
                                 const std::atomic<bool>& cancelled) noexcept
    : request_(req), session_(s), cancelled_(cancelled),
      id_text_(to_json_text(req.id)), trace_(trace_of(req.params)) {}

request_context::request_context(const mcp::request& req, mcp::session& s, const std::atomic<bool>& cancelled,
                                 detail::input_round& round) noexcept
    : request_context(req, s, cancelled) {
  round_ = &round;
}

const json::value& request_context::carried() const noexcept {
  return round_ ? round_->carried : carried_;
}

void request_context::carry(json::value value) { (round_ ? round_->carried : carried_) = std::move(value); }

const json::object& request_context::meta() const noexcept {
  static const json::object empty;
  const auto* meta = detail::object_at(request_.params, {"_meta"});
  return meta ? *meta : empty;
}

asio::awaitable<void> request_context::progress(double value, std::optional<double> total,
                                                std::string_view message) {
  const auto* token = meta().if_contains("progressToken");
  if (!token || !(token->is_string() || token->is_int64() || token->is_uint64())) co_return;
  if (last_progress_ && value <= *last_progress_) co_return;
  last_progress_ = value;
  notification n{methods::notifications_progress,
                 detail::progress_params(*token, value, total, message, dialect_of(version()))};
  co_await link().send_notification(std::move(n), id_text_);
}

void request_context::require_scopes(std::span<const std::string> required) const {
  const auto* who = principal();
  if (!who || required.empty() || who->missing_scopes(required).empty()) return;
  json::array needed;
  std::string listed;
  for (const auto& scope : required) {
    needed.emplace_back(scope);
    listed += (listed.empty() ? "" : " ") + scope;
  }
  throw protocol_error(auth::insufficient_scope_code, "Forbidden: this needs the scopes " + listed,
                       json::object{{"requiredScopes", std::move(needed)}});
}

asio::awaitable<void> request_context::notify(std::string method, json::object params) {
  notification n{std::move(method), std::move(params)};
  co_await link().send_notification(std::move(n), id_text_);
}

void request_context::close_stream() { link().close_stream(id_text_); }

asio::awaitable<json::object> request_context::request(std::string method, json::object params,
                                                       std::chrono::milliseconds timeout) {
  if (!round_) {
    continue_trace(params, trace_);  // the client's handler runs in the request's trace
    co_return co_await link().send_request(std::move(method), std::move(params), timeout, id_text_);
  }
  if (!detail::is_input_request(method))
    throw capability_error("protocol version 2026-07-28 has no server-to-client request " + method);
  co_return co_await ask_one(std::move(method), std::move(params), timeout);
}

asio::awaitable<json::object> request_context::ask_one(std::string method, json::object params,
                                                       std::chrono::milliseconds timeout) {
  auto key = method + "#" + std::to_string(++auto_keys_);
  input_requests one;
  one.emplace(key, input_request{std::move(method), std::move(params)});
  auto answers = co_await ask(std::move(one), timeout);
  co_return std::move(answers.begin()->second);
}

asio::awaitable<input_responses> request_context::ask(input_requests requests,
                                                      std::chrono::milliseconds timeout) {
  if (task_) co_return co_await task_->ask(std::move(requests), timeout);
  input_responses answers;
  if (!round_) {
    // All checked before the first is sent: none is sent when one cannot be.
    const auto& d = dialect_of(version());
    for (const auto& [key, request] : requests) {
      require_input_request(request.method);
      if (auto why = detail::legacy_input_refusal(request.method, request.params, d, session_.client_capabilities()))
        throw capability_error(std::move(*why));
    }
    for (auto& [key, input] : requests) {
      detail::shape_input_params(input.params, d);
      continue_trace(input.params, trace_);
      answers[key] = co_await link().send_request(std::move(input.method), std::move(input.params), timeout,
                                                  id_text_);
    }
    co_return answers;
  }
  if (!round_->accepts_input)
    throw protocol_error(errc::internal_error, "Internal error: " + method() +
                                                   " cannot ask the client for input (only tools/call, "
                                                   "prompts/get and resources/read can)");
  input_requests missing;
  json::object required_capabilities;
  for (auto& [key, request] : requests) {
    require_input_request(request.method);
    const json::value* answer = round_->given.if_contains(key);
    if (!answer || !detail::answers_input(request.method, *answer)) answer = round_->answers.if_contains(key);
    if (answer && detail::answers_input(request.method, *answer)) {
      answers.emplace(key, answer->get_object());
      continue;
    }
    // Asked for (again, when its answer had the wrong shape): only what the
    // client declared it can answer.
    const auto capability = detail::capability_for(request.method);
    // (The session of a 2026-07-28 request holds its envelope's capabilities.)
    if (!detail::declares_capability_for(request.method, session_.client_capabilities()))
      required_capabilities[capability] = json::object{};
    missing.insert_or_assign(key, std::move(request));
  }
  if (!required_capabilities.empty()) {
    std::string names;
    for (const auto& [name, _] : required_capabilities) names += (names.empty() ? "" : ", ") + std::string(name);
    throw protocol_error(errc::missing_client_capability,
                         "Missing required client capability: " + names,
                         json::object{{"requiredCapabilities", std::move(required_capabilities)}});
  }
  // Taken answers travel in the next round's requestState too.
  for (const auto& [key, answer] : answers) round_->answers[key] = answer;
  if (!missing.empty()) throw input_required{std::move(missing)};
  co_return answers;
}

asio::awaitable<void> request_context::log(logging_level level, json::value data,
                                            std::string_view logger) {
  const auto threshold = session_.log_level();
  // A modern request gets log messages only when its _meta asks for them.
  if (session_.per_request() && !threshold) co_return;
  if (threshold && level < *threshold) co_return;
  auto params = to_json_value(log_message{level, std::string(logger), std::move(data)});
  co_await notify(methods::notifications_message, std::move(params.as_object()));
}

asio::awaitable<json::object> request_context::sample(json::object params,
                                                      std::chrono::milliseconds timeout) {
  co_return co_await ask_one(std::string(sampling_method), std::move(params), timeout);
}

asio::awaitable<json::object> request_context::elicit(std::string message,
                                                      json::object requested_schema,
                                                      std::chrono::milliseconds timeout) {
  auto form = input_request::elicitation(std::move(message), std::move(requested_schema));
  co_return co_await ask_one(std::move(form.method), std::move(form.params), timeout);
}

asio::awaitable<json::object> request_context::elicit_url(std::string message, std::string url,
                                                          std::string elicitation_id,
                                                          std::chrono::milliseconds timeout) {
  elicit_params asked{"url", std::move(message), std::nullopt, std::move(url), std::move(elicitation_id)};
  auto params = to_json_value(std::move(asked)).as_object();
  co_return co_await ask_one(std::string(elicitation_method), std::move(params), timeout);
}

asio::awaitable<json::array> request_context::roots(std::chrono::milliseconds timeout) {
  auto result = co_await ask_one(std::string(roots_method), json::object{}, timeout);
  if (!detail::answers_input(roots_method, result))
    throw protocol_error(errc::internal_error, "Malformed roots/list result: not a list of roots with URIs");
  co_return std::move(result["roots"].as_array());
}

json::object server_behaviour::modern_server_info() const { return detail::modern_server_info(server_info()); }

asio::awaitable<void> server_behaviour::handle_notification(const notification&, session&) {
  co_return;
}

}  // namespace mcp
