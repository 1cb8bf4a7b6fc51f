#pragma once
// W3C trace context that came as HTTP headers (`traceparent`, `tracestate`)
// of a POST, for the MCP messages its body carries. MCP propagates trace
// context in each message's `params._meta` (OpenTelemetry's conventions for
// MCP); a client that traces only its HTTP requests sends the headers
// instead. The server copies them into the `_meta` of each message that has
// no `traceparent` of its own, so that everything after (the engine's
// events, the 2026-07-28 envelope, request_context::trace, a tracing link)
// reads one context from one place.

#include "served_request.hpp"

#include <boost/json/value.hpp>

namespace mcp::detail {

/// Copies the POST's trace headers into `body`'s messages (one, or each of
/// a batch) whose `params._meta` has no `traceparent`. Does nothing when
/// the POST has no valid `traceparent`.
void adopt_trace_headers(const served_request& req, boost::json::value& body);

}  // namespace mcp::detail
