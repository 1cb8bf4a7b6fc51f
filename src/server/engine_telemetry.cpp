// The telemetry events of what an engine serves (engine_telemetry.hpp).

#include "engine_telemetry.hpp"
#include "../detail/json_members.hpp"
#include "../protocol/modern_era.hpp"

#include <mcp/protocol/envelope.hpp>

#include <array>

namespace mcp::detail {

namespace {

using telemetry::attribute;
using telemetry::event;
using telemetry::measurement;

// What a request acts on: the tool or prompt it names, or the resource's URI.
std::string_view target_of(const json::object& params) noexcept {
  auto name = detail::string_member(params, "name");
  return name.empty() ? detail::string_member(params, "uri") : name;
}

std::string_view outcome_of(const message& reply, bool cancelled, std::int64_t& code, std::string& error_type) {
  if (cancelled) return "cancelled";
  if (const auto* failed = std::get_if<error_response>(&reply)) {
    code = failed->error.code;
    error_type = std::to_string(code);
    return "error";
  }
  if (const auto* answered = std::get_if<response>(&reply)) {
    if (const auto* result = answered->result.if_object()) {
      if (detail::result_type_of(*result) == "input_required") return "input_required";
      if (detail::flag_member(*result, "isError")) error_type = "tool_error";
    }
  }
  return "ok";
}

}  // namespace

bool request_telemetry::wanted() noexcept {
  return telemetry::listening(event::server_request_start) || telemetry::listening(event::server_request_stop);
}

std::string_view trace_id_of(const json::object& params) noexcept {
  const auto* meta = detail::object_at(params, {"_meta"});
  if (!meta) return {};
  const auto traceparent = detail::string_member(*meta, "traceparent");
  if (!valid_traceparent(traceparent)) return {};
  return traceparent.substr(3, 32);
}

request_telemetry::request_telemetry(const request& req, const session& s, bool modern)
    : req_(req), session_(s), id_text_(to_string(req.id)), session_id_(modern ? std::string() : s.id()),
      target_(target_of(req.params)), trace_id_(trace_id_of(req.params)) {}

void request_telemetry::start() const {
  if (!telemetry::listening(event::server_request_start)) return;
  const std::array metadata{
      attribute("method", req_.method),         attribute("request_id", id_text_),
      attribute("session_id", session_id_),     attribute("protocol_version", to_string(session_.version())),
      attribute("transport", session_.transport().kind), attribute("target", target_),
      attribute("trace_id", trace_id_),
  };
  telemetry::emit(event::server_request_start, {}, metadata);
}

void request_telemetry::stop(const message& reply, bool cancelled) const {
  if (!telemetry::listening(event::server_request_stop)) return;
  std::int64_t code = 0;
  std::string error_type;
  const auto outcome = outcome_of(reply, cancelled, code, error_type);
  const std::array measurements{
      measurement{"duration", telemetry::seconds_between(started_, std::chrono::steady_clock::now())}};
  std::vector<attribute> metadata{
      attribute("method", req_.method),         attribute("request_id", id_text_),
      attribute("session_id", session_id_),     attribute("protocol_version", to_string(session_.version())),
      attribute("transport", session_.transport().kind), attribute("target", target_),
      attribute("trace_id", trace_id_),         attribute("outcome", outcome),
  };
  if (code != 0) metadata.emplace_back("error_code", code);
  if (!error_type.empty()) metadata.emplace_back("error_type", error_type);
  telemetry::emit(event::server_request_stop, measurements, metadata);
}

void report_handler_exception(const request& req, const session& s, std::string_view what) {
  if (!telemetry::listening(event::server_request_exception)) return;
  const auto id = to_string(req.id);
  telemetry::emit(event::server_request_exception, {},
                  {{"method", req.method}, {"request_id", id}, {"session_id", s.id()}, {"message", what}});
}

void report_notification(const notification& n, const session& s, std::chrono::steady_clock::time_point started) {
  if (!telemetry::listening(event::server_notification)) return;
  const auto duration = telemetry::seconds_between(started, std::chrono::steady_clock::now());
  telemetry::emit(event::server_notification, {{"duration", duration}},
                  {{"method", n.method}, {"session_id", s.id()}, {"transport", s.transport().kind}});
}

void report_session_created(const session& s) {
  if (!telemetry::listening(event::session_created)) return;
  const auto& client = s.client_info();
  telemetry::emit(event::session_created, {},
                  {{"session_id", s.id()},
                   {"protocol_version", to_string(s.version())},
                   {"client_name", client.name},
                   {"client_version", client.version},
                   {"transport", s.transport().kind}});
}

void report_session_end(event reason, const session& s, std::chrono::steady_clock::time_point created) {
  if (!telemetry::listening(reason)) return;
  const auto lived = telemetry::seconds_between(created, std::chrono::steady_clock::now());
  telemetry::emit(reason, {{"duration", lived}},
                  {{"session_id", s.id()}, {"protocol_version", to_string(s.version())}, {"transport", s.transport().kind}});
}

}  // namespace mcp::detail
