#include "trace_headers.hpp"

#include <mcp/protocol/envelope.hpp>

#include <boost/json/object.hpp>

namespace mcp::detail {

namespace {

namespace json = boost::json;

void adopt(json::value& message, std::string_view traceparent, std::string_view tracestate) {
  auto* fields = message.if_object();
  if (!fields) return;
  auto* params = fields->if_contains("params");
  if (!params) params = &((*fields)["params"] = json::object());
  if (!params->is_object()) return;  // (the engine refuses it)
  auto* meta = params->get_object().if_contains("_meta");
  if (!meta) meta = &(params->get_object()["_meta"] = json::object());
  if (!meta->is_object() || meta->get_object().contains("traceparent")) return;
  meta->get_object()["traceparent"] = traceparent;
  if (!tracestate.empty()) meta->get_object()["tracestate"] = tracestate;
}

}  // namespace

void adopt_trace_headers(const served_request& req, json::value& body) {
  const auto traceparent = req[known_header::traceparent];
  if (traceparent.empty() || !valid_traceparent(traceparent)) return;
  const auto tracestate = req[known_header::tracestate];
  // (Responses to the server's requests have no params: only requests and notifications get one.)
  const auto adopt_if_call = [&](json::value& message) {
    if (const auto* fields = message.if_object(); fields && fields->contains("method"))
      adopt(message, traceparent, tracestate);
  };
  if (auto* batch = body.if_array()) {
    for (auto& message : *batch) adopt_if_call(message);
  } else {
    adopt_if_call(body);
  }
}

}  // namespace mcp::detail
