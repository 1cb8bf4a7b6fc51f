// Trace context over HTTP: a POST's `traceparent` and `tracestate` headers
// stand for the trace of the messages it carries when their `_meta` names
// none; `_meta` wins when it does.

#include <mcp/telemetry/mcp_tracing.hpp>

#include "http_test_server.hpp"

namespace mcp::test {
namespace {

constexpr std::string_view header_traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
constexpr std::string_view meta_traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

struct traced_server {
  std::shared_ptr<telemetry::memory_span_exporter> spans = std::make_shared<telemetry::memory_span_exporter>();

  explicit traced_server(test_server& s) {
    s.tools->middleware().use(telemetry::server_tracing(std::make_shared<telemetry::tracer>(spans)));
  }
  // The parent of the server span of the call with this JSON-RPC id.
  std::string parent_of(std::string_view request_id) const {
    for (const auto& span : spans->spans())
      if (span.text("jsonrpc.request.id") == request_id)
        return !span.has_parent() ? "(root)" : "00-" + telemetry::to_hex(span.context.trace_id) + "-" + telemetry::to_hex(span.parent_span_id) + "-01";
    return "(no span)";
  }
};

TEST(HttpTracing, APostsTraceHeadersAreTheTraceOfItsMessages) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    traced_server traced(s);
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);

    const auto call = rpc_request(1, "tools/call", tool_call("echo", {{"text", "hi"}}));
    auto with_header = session_post(call, session);
    with_header.header("traceparent", std::string(header_traceparent));
    with_header.header("tracestate", "congo=t61rcWkgMzE");
    const auto reply = co_await c.send(with_header);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(traced.parent_of("1"), header_traceparent);
    for (const auto& span : traced.spans->spans()) EXPECT_EQ(span.context.tracestate, "congo=t61rcWkgMzE");

    auto params = tool_call("echo", {{"text", "hi"}});
    params["_meta"] = json::object{{"traceparent", meta_traceparent}};
    const auto traced_call = rpc_request(2, "tools/call", std::move(params));
    auto both = session_post(traced_call, session);
    both.header("traceparent", std::string(header_traceparent));
    const auto second = co_await c.send(both);
    EXPECT_EQ(second.status, 200u);
    EXPECT_EQ(traced.parent_of("2"), meta_traceparent);

    const auto untraced = rpc_request(3, "tools/call", tool_call("echo", {{"text", "hi"}}));
    auto bad = session_post(untraced, session);
    bad.header("traceparent", "00-not-a-trace");
    const auto third = co_await c.send(bad);
    EXPECT_EQ(third.status, 200u);
    EXPECT_EQ(traced.parent_of("3"), "(root)");
  });
}

}  // namespace
}  // namespace mcp::test
