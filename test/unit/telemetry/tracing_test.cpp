// Tracing: W3C trace context, the sampler, the OTLP JSON encoding, and the
// spans the server and client links make, over memory pairs in both eras.

#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/telemetry/mcp_tracing.hpp>
#include <mcp/telemetry/otlp_exporter.hpp>
#include <mcp/transport/memory.hpp>

#include "scoped_environment.hpp"
#include "server_harness.hpp"

#include <boost/asio/co_spawn.hpp>

namespace mcp::test {
namespace {

using telemetry::span_kind;
using telemetry::span_record;
using telemetry::status_code;

constexpr std::string_view caller_traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
constexpr std::string_view caller_trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
constexpr std::string_view caller_span_id = "00f067aa0ba902b7";

TEST(TraceContext, ATraceparentReadsAndWritesBack) {
  const auto context = telemetry::parse_traceparent(caller_traceparent, "rojo=00f067aa0ba902b7");
  ASSERT_TRUE(context);
  EXPECT_EQ(telemetry::to_hex(context->trace_id), caller_trace_id);
  EXPECT_EQ(telemetry::to_hex(context->span_id), caller_span_id);
  EXPECT_TRUE(context->sampled());
  EXPECT_EQ(context->traceparent(), caller_traceparent);
  const auto trace = context->to_trace("userId=alice");
  EXPECT_EQ(trace.traceparent, caller_traceparent);
  EXPECT_EQ(trace.tracestate, "rojo=00f067aa0ba902b7");
  EXPECT_EQ(trace.baggage, "userId=alice");
}

TEST(TraceContext, WhatW3CRefusesIsRefused) {
  for (const std::string_view bad : {
           "",
           "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",      // no flags
           "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",   // upper case
           "00-00000000000000000000000000000000-00f067aa0ba902b7-01",   // zero trace id
           "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",   // zero parent id
           "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // version ff
           "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",  // 00 has nothing after the flags
           "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // separator
           "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",   // not hex
       })
    EXPECT_FALSE(telemetry::parse_traceparent(bad)) << bad;
}

TEST(TraceContext, ALaterVersionIsReadForItsVersion00Fields) {
  const auto context = telemetry::parse_traceparent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00-future");
  ASSERT_TRUE(context);
  EXPECT_FALSE(context->sampled());
  EXPECT_EQ(context->traceparent(), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
}

TEST(Sampler, AChildFollowsItsParentsDecision) {
  const telemetry::sampler never(0.0);
  const telemetry::sampler always(1.0);
  auto sampled = *telemetry::parse_traceparent(caller_traceparent);
  auto unsampled = sampled;
  unsampled.flags = 0;
  EXPECT_TRUE(never.sample(sampled, sampled.trace_id));
  EXPECT_FALSE(always.sample(unsampled, unsampled.trace_id));
  EXPECT_FALSE(never.sample({}, sampled.trace_id));
  EXPECT_TRUE(always.sample({}, sampled.trace_id));
}

TEST(Sampler, TheRatioTakesItsShareOfRootSpans) {
  auto exporter = std::make_shared<telemetry::memory_span_exporter>();
  const telemetry::tracer tracer(exporter, 0.25);
  int sampled = 0;
  for (int i = 0; i < 4000; ++i) {
    auto span = tracer.start_span("root", span_kind::internal);
    EXPECT_TRUE(span.context().valid());
    if (span.context().sampled()) ++sampled;
    EXPECT_EQ(span.recording(), span.context().sampled());
  }
  EXPECT_EQ(exporter->spans().size(), static_cast<std::size_t>(sampled));
  EXPECT_GT(sampled, 800);   // 1000 expected
  EXPECT_LT(sampled, 1200);
}

TEST(Tracer, AnUnsampledTraceStillPassesItsContextOn) {
  auto exporter = std::make_shared<telemetry::memory_span_exporter>();
  const telemetry::tracer tracer(exporter);
  auto parent = *telemetry::parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", "a=1");
  {
    auto child = tracer.start_span("child", span_kind::server, parent);
    EXPECT_FALSE(child.recording());
    EXPECT_EQ(child.context().trace_id, parent.trace_id);
    EXPECT_NE(child.context().span_id, parent.span_id);
    EXPECT_EQ(child.context().tracestate, "a=1");
    EXPECT_FALSE(child.context().sampled());
  }
  EXPECT_TRUE(exporter->spans().empty());
}

TEST(OtlpJson, SpansAreEncodedAsOtlpJsonMapsThem) {
  span_record span;
  span.name = "tools/call echo";
  span.kind = span_kind::server;
  span.context = *telemetry::parse_traceparent(caller_traceparent, "k=v");
  span.parent_span_id = span.context.span_id;
  span.context.span_id = {1, 2, 3, 4, 5, 6, 7, 8};
  span.start_unix_nano = 1700000000000000001;
  span.end_unix_nano = 1700000000500000002;
  span.attributes = {{"s", std::string("text")}, {"i", std::int64_t{42}}, {"d", 1.5}, {"b", true}};
  span.status = status_code::error;
  span.status_message = "boom";
  const std::vector<span_record> spans{span};
  const auto body = json::parse(telemetry::otlp_json(spans, "svc"));
  const auto& resource_spans = body.at("resourceSpans").at(0);
  EXPECT_EQ(resource_spans.at("resource").at("attributes").at(0),
            json::parse(R"({"key":"service.name","value":{"stringValue":"svc"}})"));
  const auto& encoded = resource_spans.at("scopeSpans").at(0).at("spans").at(0);
  EXPECT_EQ(encoded.at("traceId").as_string(), caller_trace_id);
  EXPECT_EQ(encoded.at("spanId"), "0102030405060708");
  EXPECT_EQ(encoded.at("parentSpanId").as_string(), caller_span_id);
  EXPECT_EQ(encoded.at("traceState"), "k=v");
  EXPECT_EQ(encoded.at("kind"), 2);
  EXPECT_EQ(encoded.at("startTimeUnixNano"), "1700000000000000001");
  EXPECT_EQ(encoded.at("endTimeUnixNano"), "1700000000500000002");
  EXPECT_EQ(encoded.at("attributes"), json::parse(R"([{"key":"s","value":{"stringValue":"text"}},
      {"key":"i","value":{"intValue":"42"}},{"key":"d","value":{"doubleValue":1.5}},
      {"key":"b","value":{"boolValue":true}}])"));
  EXPECT_EQ(encoded.at("status"), json::parse(R"({"code":2,"message":"boom"})"));
}

TEST(OtlpExporterOptions, TheEnvironmentNamesTheCollector) {
  const test::scoped_environment endpoint("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/");
  const test::scoped_environment service("OTEL_SERVICE_NAME", "orders");
  {
    const test::scoped_environment none("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", nullptr);
    auto options = telemetry::otlp_exporter_options::from_environment();
    EXPECT_EQ(options.url(), "http://collector:4318/v1/traces");
    EXPECT_EQ(options.service_name, "orders");
  }
  const test::scoped_environment traces("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://elsewhere:9000/traces");
  EXPECT_EQ(telemetry::otlp_exporter_options::from_environment().url(), "http://elsewhere:9000/traces");
}

// --- Spans of a server and a client ---------------------------------------

struct traced {
  std::shared_ptr<telemetry::memory_span_exporter> exporter = std::make_shared<telemetry::memory_span_exporter>();
  std::shared_ptr<telemetry::tracer> tracer = std::make_shared<telemetry::tracer>(exporter);

  std::optional<span_record> named(std::string_view name) const {
    for (auto& span : exporter->spans())
      if (span.name == name) return span;
    return std::nullopt;
  }
};

std::shared_ptr<server> traced_server(const traced& t) {
  auto srv = std::make_shared<server>(implementation{"traced", "1.0"});
  srv->add_tool({"echo", "Echoes"}, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    co_return call_tool_result::text("echo");
  });
  srv->add_tool({"trace", "Says the trace it runs in"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  co_return call_tool_result::text(ctx.trace().traceparent);
                });
  srv->add_tool({"broken", "Fails"}, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    co_return call_tool_result::error("it broke");
  });
  srv->middleware().use(telemetry::server_tracing(t.tracer));
  return srv;
}

json::object traced_call(std::string tool, std::string_view traceparent) {
  json::object meta{{"traceparent", traceparent}, {"tracestate", "rojo=1"}};
  return {{"name", std::move(tool)}, {"arguments", json::object{}}, {"_meta", std::move(meta)}};
}

std::string_view text_of(const json::value& reply) {
  return reply.at("result").at("content").at(0).at("text").as_string();
}

TEST(ServerTracing, ALegacyCallIsASpanInTheCallersTrace) {
  traced t;
  run_test([&]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, traced_server(t));
    co_await h.initialize();
    auto params = traced_call("trace", caller_traceparent);
    const auto reply = co_await h.call(7, "tools/call", std::move(params));
    const auto span = t.named("tools/call trace");
    CO_ASSERT_TRUE(span.has_value());
    EXPECT_EQ(span->kind, span_kind::server);
    EXPECT_EQ(telemetry::to_hex(span->context.trace_id), caller_trace_id);
    EXPECT_EQ(telemetry::to_hex(span->parent_span_id), caller_span_id);
    EXPECT_EQ(span->context.tracestate, "rojo=1");
    EXPECT_EQ(span->text("mcp.method.name"), "tools/call");
    EXPECT_EQ(span->text("gen_ai.tool.name"), "trace");
    EXPECT_EQ(span->text("gen_ai.operation.name"), "execute_tool");
    EXPECT_EQ(span->text("jsonrpc.request.id"), "7");
    EXPECT_EQ(span->text("mcp.protocol.version"), "2025-11-25");
    EXPECT_FALSE(span->text("mcp.session.id").empty());
    EXPECT_EQ(span->status, status_code::unset);
    EXPECT_LE(span->start_unix_nano, span->end_unix_nano);
    // The handler ran in the server span: its context is the span's.
    EXPECT_EQ(text_of(reply), span->context.traceparent());
  });
}

TEST(ServerTracing, AModernRequestContinuesTheTraceOfItsMeta) {
  traced t;
  run_test([&]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, traced_server(t));
    auto params = traced_call("echo", caller_traceparent);
    auto& meta = params["_meta"].as_object();
    meta["io.modelcontextprotocol/protocolVersion"] = "2026-07-28";
    meta["io.modelcontextprotocol/clientInfo"] = json::object{{"name", "test"}, {"version", "1"}};
    meta["io.modelcontextprotocol/clientCapabilities"] = json::object{};
    const auto reply = co_await h.call(1, "tools/call", std::move(params));
    CO_ASSERT_TRUE(reply.as_object().contains("result"));
    const auto span = t.named("tools/call echo");
    CO_ASSERT_TRUE(span.has_value());
    EXPECT_EQ(telemetry::to_hex(span->context.trace_id), caller_trace_id);
    EXPECT_EQ(telemetry::to_hex(span->parent_span_id), caller_span_id);
    EXPECT_EQ(span->text("mcp.protocol.version"), "2026-07-28");
    EXPECT_EQ(span->attribute("mcp.session.id"), nullptr);  // the request's own session is no MCP session
  });
}

TEST(ServerTracing, ARequestWithoutATraceStartsOne) {
  traced t;
  run_test([&]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, traced_server(t));
    co_await h.initialize();
    json::object no_params;
    co_await h.call(1, "tools/list", std::move(no_params));
    const auto span = t.named("tools/list");
    CO_ASSERT_TRUE(span.has_value());
    EXPECT_FALSE(span->has_parent());
    EXPECT_TRUE(span->context.valid());
    EXPECT_EQ(span->attribute("gen_ai.operation.name"), nullptr);
  });
}

TEST(ServerTracing, FailuresMarkTheSpanAsErrors) {
  traced t;
  run_test([&]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, traced_server(t));
    co_await h.initialize();
    auto broken = traced_call("broken", caller_traceparent);
    co_await h.call(1, "tools/call", std::move(broken));
    auto missing = traced_call("missing", caller_traceparent);
    const auto refused = co_await h.call(2, "tools/call", std::move(missing));
    const auto code = refused.at("error").at("code").as_int64();
    const auto tool_error = t.named("tools/call broken");
    CO_ASSERT_TRUE(tool_error.has_value());
    EXPECT_EQ(tool_error->status, status_code::error);
    EXPECT_EQ(tool_error->text("error.type"), "tool_error");
    const auto rpc_error = t.named("tools/call missing");
    CO_ASSERT_TRUE(rpc_error.has_value());
    EXPECT_EQ(rpc_error->status, status_code::error);
    EXPECT_EQ(rpc_error->text("error.type"), std::to_string(code));
    EXPECT_EQ(rpc_error->text("rpc.response.status_code"), std::to_string(code));
    EXPECT_EQ(rpc_error->status_message, refused.at("error").at("message").as_string());
  });
}

TEST(ServerTracing, AResourceReadNamesItsUriButNotInTheSpanName) {
  traced t;
  run_test([&]() -> asio::awaitable<void> {
    auto srv = traced_server(t);
    srv->add_resource(resource_info{"file:///doc.txt", "doc"},
                      [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
                        co_return std::vector<resource_contents>{resource_contents::from_text(uri, "hello")};
                      });
    harness h(co_await asio::this_coro::executor, srv);
    co_await h.initialize();
    json::object params{{"uri", "file:///doc.txt"}};
    co_await h.call(1, "resources/read", std::move(params));
    const auto span = t.named("resources/read");
    CO_ASSERT_TRUE(span.has_value());
    EXPECT_EQ(span->text("mcp.resource.uri"), "file:///doc.txt");
  });
}

// A client calls server A's relay tool; its handler calls server B with the
// trace it runs in. Every span is one trace: client -> A -> A's client -> B.
TEST(ClientTracing, AHandlersCallContinuesTheTrace) {
  traced t;
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto downstream = traced_server(t);
    auto [b_client_end, b_server_end] = make_memory_pair(ex);
    bool b_served = false;
    asio::co_spawn(ex, serve(*downstream, *b_server_end), [&](std::exception_ptr) { b_served = true; });
    mcp::client to_b(ex);
    to_b.middleware().use(telemetry::client_tracing(t.tracer));
    co_await to_b.connect(std::move(b_client_end));

    auto upstream = traced_server(t);
    upstream->add_tool({"relay", "Calls B"},
                       [&to_b](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                         call_options options;
                         options.trace = ctx.trace();
                         json::object arguments;
                         co_return co_await to_b.call_tool("echo", std::move(arguments), options);
                       });
    auto [a_client_end, a_server_end] = make_memory_pair(ex);
    bool a_served = false;
    asio::co_spawn(ex, serve(*upstream, *a_server_end), [&](std::exception_ptr) { a_served = true; });
    mcp::client to_a(ex);
    to_a.middleware().use(telemetry::client_tracing(t.tracer));
    co_await to_a.connect(std::move(a_client_end));

    const auto result = co_await to_a.call_tool("relay");
    EXPECT_FALSE(result.is_error);
    co_await to_a.close();
    co_await to_b.close();
    while (!a_served || !b_served) co_await sleep_for(std::chrono::milliseconds(5));

    const auto spans = t.exporter->spans();
    std::vector<const span_record*> relay, echo;
    for (const auto& span : spans) (span.name == "tools/call relay" ? relay : echo).push_back(&span);
    CO_ASSERT_TRUE(relay.size() == 2 && echo.size() == 2);
    const auto by_kind = [](const std::vector<const span_record*>& spans, span_kind kind) {
      return spans[0]->kind == kind ? spans[0] : spans[1];
    };
    const auto* client_relay = by_kind(relay, span_kind::client);
    const auto* server_relay = by_kind(relay, span_kind::server);
    const auto* client_echo = by_kind(echo, span_kind::client);
    const auto* server_echo = by_kind(echo, span_kind::server);
    EXPECT_FALSE(client_relay->has_parent());
    EXPECT_EQ(server_relay->parent_span_id, client_relay->context.span_id);
    EXPECT_EQ(client_echo->parent_span_id, server_relay->context.span_id);
    EXPECT_EQ(server_echo->parent_span_id, client_echo->context.span_id);
    for (const auto* span : {server_relay, client_echo, server_echo})
      EXPECT_EQ(span->context.trace_id, client_relay->context.trace_id);
    EXPECT_EQ(client_relay->text("gen_ai.tool.name"), "relay");
  });
}

}  // namespace
}  // namespace mcp::test
