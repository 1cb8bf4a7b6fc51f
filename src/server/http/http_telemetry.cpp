#include "http_telemetry.hpp"

#include "../engine_telemetry.hpp"
#include "../../detail/json_members.hpp"

#include <mcp/protocol/envelope.hpp>

#include <boost/beast/http/verb.hpp>

#include <array>

namespace mcp::detail {

namespace {

using telemetry::attribute;
using telemetry::event;
using telemetry::measurement;

std::string_view kind_name(stream_kind kind) {
  switch (kind) {
    case stream_kind::post: return "post";
    case stream_kind::get: return "get";
    case stream_kind::legacy: return "legacy";
    case stream_kind::resumed: return "resumed";
  }
  return {};
}

// The trace id of a W3C traceparent, or empty.
std::string_view trace_id_of_header(std::optional<std::string_view> traceparent) {
  if (!traceparent || !valid_traceparent(*traceparent)) return {};
  return traceparent->substr(3, 32);
}

bool listening_to_connections() {
  return telemetry::listening(event::connection_accepted) || telemetry::listening(event::connection_closed);
}

}  // namespace

void note_message(served_request& req, const boost::json::value& body) {
  if (!telemetry::listening(event::http_request)) return;
  const auto* message = body.if_object();
  if (const auto* batch = body.if_array(); batch && !batch->empty()) message = batch->front().if_object();
  if (!message) return;
  if (const auto method = detail::string_member(*message, "method"); !method.empty()) req.mcp_method = method;
  if (const auto* params = detail::object_at(*message, {"params"})) req.meta_trace_id = trace_id_of(*params);
}

void connection_refused(std::string_view peer, std::string_view reason) {
  if (reason.empty()) return;
  telemetry::emit(event::connection_refused, {}, {{"peer", peer}, {"reason", reason}});
}

connection_telemetry::connection_telemetry(response_channel& io, std::string_view transport)
    : on_(listening_to_connections()), transport_(transport) {
  if (!on_) return;
  opened_ = telemetry_clock::now();
  telemetry::emit(event::connection_accepted, {}, {{"peer", io.peer()}, {"transport", transport_}});
}

void connection_telemetry::closed(response_channel& io) const {
  if (!on_) return;
  const auto& counted = io.counted();
  telemetry::emit(event::connection_closed,
                  {{"duration", telemetry::seconds_between(opened_, telemetry_clock::now())},
                   {"requests", static_cast<double>(requests_)},
                   {"bytes_in", static_cast<double>(counted.bytes_in)},
                   {"bytes_out", static_cast<double>(counted.bytes_out)}},
                  {{"peer", io.peer()}, {"transport", transport_}});
}

http_request_telemetry::http_request_telemetry(response_channel& io) : on_(telemetry::listening(event::http_request)) {
  if (!on_) return;
  auto& counted = io.counted();
  bytes_in_ = counted.bytes_in;
  bytes_out_ = counted.bytes_out;
  counted.status = 0;
  counted.session_id.clear();
}

void http_request_telemetry::arrived() noexcept {
  if (on_) arrived_ = telemetry_clock::now();
}

void http_request_telemetry::answered(response_channel& io, const served_request& req) const {
  if (!on_) return;
  const auto& counted = io.counted();
  const auto target = req.target();
  const auto path = target.substr(0, target.find('?'));
  const auto verb = boost::beast::http::to_string(req.method());
  // The session the request named, or the one its response opened.
  auto session_id = req[known_header::mcp_session_id];
  if (session_id.empty()) session_id = counted.session_id;
  // The HTTP header's trace context first; the message's own otherwise.
  auto trace_id = trace_id_of_header(req.find_header("traceparent"));
  if (trace_id.empty()) trace_id = req.meta_trace_id;
  const auto user_agent = req.find_header("user-agent").value_or(std::string_view());
  const std::array<measurement, 3> measurements{
      measurement{"duration", telemetry::seconds_between(arrived_, telemetry_clock::now())},
      measurement{"bytes_in", static_cast<double>(counted.bytes_in - bytes_in_)},
      measurement{"bytes_out", static_cast<double>(counted.bytes_out - bytes_out_)}};
  std::array<attribute, 8> metadata{attribute{"http_method", std::string_view(verb.data(), verb.size())},
                                    attribute{"path", path},
                                    attribute{"status", static_cast<std::int64_t>(counted.status)},
                                    attribute{"peer", io.peer()},
                                    attribute{"session_id", session_id},
                                    attribute{"user_agent", user_agent},
                                    attribute{"trace_id", trace_id},
                                    attribute{"method", req.mcp_method}};
  // The fields that do not apply are absent.
  std::size_t n = 4;
  for (std::size_t i = 4; i < metadata.size(); ++i)
    if (!metadata[i].text.empty()) metadata[n++] = metadata[i];
  telemetry::emit(event::http_request, measurements, std::span<const attribute>(metadata.data(), n));
}

stream_telemetry::stream_telemetry(std::string_view session_id, std::string_view stream_id, stream_kind kind,
                                   std::string_view last_event_id)
    : on_(telemetry::listening(event::stream_opened) || telemetry::listening(event::stream_resumed) ||
          telemetry::listening(event::stream_closed)),
      session_id_(session_id),
      stream_id_(stream_id),
      kind_(kind_name(kind)) {
  if (!on_) return;
  opened_ = telemetry_clock::now();
  if (kind != stream_kind::resumed)
    telemetry::emit(event::stream_opened, {},
                    {{"session_id", session_id_}, {"stream_id", stream_id_}, {"kind", kind_}});
  else
    telemetry::emit(event::stream_resumed, {},
                    {{"session_id", session_id_},
                     {"stream_id", stream_id_},
                     {"kind", kind_},
                     {"last_event_id", last_event_id}});
}

void stream_telemetry::closed(std::uint64_t events) const {
  if (!on_) return;
  telemetry::emit(event::stream_closed,
                  {{"duration", telemetry::seconds_between(opened_, telemetry_clock::now())},
                   {"events", static_cast<double>(events)}},
                  {{"session_id", session_id_}, {"stream_id", stream_id_}, {"kind", kind_}});
}

}  // namespace mcp::detail
