#pragma once
// Spans of MCP requests, named and attributed after OpenTelemetry's semantic
// conventions for MCP (docs/observability.md, "Tracing", lists them):
//
//   auto exporter = std::make_shared<mcp::telemetry::otlp_http_exporter>(ex, options);
//   auto tracer = std::make_shared<mcp::telemetry::tracer>(exporter);
//   server.middleware().use(mcp::telemetry::server_tracing(tracer));  // SERVER spans
//   client.middleware().use(mcp::telemetry::client_tracing(tracer));  // CLIENT spans
//
// A server span continues the trace the request came with (`params._meta`,
// in either era; over HTTP, the POST's `traceparent` header when `_meta` has
// none), and is the handler's current context: `ctx.trace()` returns it, so
// a call the handler makes with `call_options::trace = ctx.trace()` is its
// child. A client span is a child of `outgoing_request::trace` (or of the
// `_meta.traceparent` the caller wrote), and goes out in `params._meta`.

#include <mcp/export.hpp>
#include <mcp/client/middleware.hpp>
#include <mcp/server/middleware.hpp>
#include <mcp/telemetry/tracing.hpp>

#include <memory>

namespace mcp::telemetry {

/// A server middleware link making a SERVER span for every request and
/// notification it wraps. Add it first, to time the whole of the chain.
MCP_API std::shared_ptr<server_middleware> server_tracing(std::shared_ptr<const tracer> tracer);

/// A client middleware link making a CLIENT span for every request the
/// client sends through its chain.
MCP_API std::shared_ptr<client_middleware> client_tracing(std::shared_ptr<const tracer> tracer);

}  // namespace mcp::telemetry
