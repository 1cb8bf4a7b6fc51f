// Our OTLP/HTTP exporter against a receiver that reads what it sends with the
// official OpenTelemetry JavaScript packages (otlp_receiver.mjs): a traced
// client calls a traced server, and the receiver sees both spans, one trace,
// the server's the child of the client's, named and attributed as sent.

#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/telemetry/mcp_tracing.hpp>
#include <mcp/telemetry/otlp_exporter.hpp>
#include <mcp/transport/memory.hpp>

#include "node_process.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>

namespace mcp::test {
namespace {

json::object span_line(node_process& receiver, std::string_view kind) {
  const auto prefix = "span " + std::string(kind) + " ";
  return json::parse(receiver.wait_for_line(prefix, 10s, "otlp_receiver.mjs")).as_object();
}

TEST(OtlpExporter, TheOfficialOtlpPackagesReadTheSpansItSends) {
  node_process receiver({std::string(CADUCEUS_INTEROP_DIR) + "/otlp_receiver.mjs"});
  const auto port = receiver.wait_for_line("listening ", 20s, "otlp_receiver.mjs");
  telemetry::otlp_http_exporter::counts sent;
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    telemetry::otlp_exporter_options options;
    options.endpoint = "http://127.0.0.1:" + port;
    options.service_name = "otlp-interop";
    options.flush_interval = 50ms;
    auto exporter = std::make_shared<telemetry::otlp_http_exporter>(ex, options);
    auto tracer = std::make_shared<telemetry::tracer>(exporter);

    server srv(implementation{"traced", "1.0"});
    srv.add_tool({"echo", "Echoes"}, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
      co_return call_tool_result::text("echo");
    });
    srv.middleware().use(telemetry::server_tracing(tracer));
    auto [client_end, server_end] = make_memory_pair(ex);
    bool served = false;
    asio::co_spawn(ex, serve(srv, *server_end), [&](std::exception_ptr) { served = true; });
    mcp::client c(ex);
    c.middleware().use(telemetry::client_tracing(tracer));
    co_await c.connect(std::move(client_end));
    co_await c.call_tool("echo");
    co_await c.close();
    while (!served) co_await sleep_for(5ms);
    co_await exporter->shutdown(5s);
    sent = exporter->stats();
  });
  EXPECT_EQ(sent.exported, 2u);
  EXPECT_EQ(sent.dropped, 0u);

  const auto client_span = span_line(receiver, "client");
  const auto server_span = span_line(receiver, "server");
  EXPECT_EQ(receiver.output().find("invalid"), std::string::npos) << receiver.output();
  for (const auto* span : {&client_span, &server_span}) {
    EXPECT_EQ(span->at("service"), "otlp-interop");
    EXPECT_EQ(span->at("name"), "tools/call echo");
    EXPECT_EQ(span->at("attributes").at("mcp.method.name"), "tools/call");
    EXPECT_EQ(span->at("attributes").at("gen_ai.tool.name"), "echo");
    EXPECT_EQ(span->at("attributes").at("gen_ai.operation.name"), "execute_tool");
    EXPECT_EQ(span->at("status"), 0);
  }
  EXPECT_EQ(client_span.at("parentSpanId"), "");
  EXPECT_EQ(server_span.at("traceId"), client_span.at("traceId"));
  EXPECT_EQ(server_span.at("parentSpanId"), client_span.at("spanId"));
  EXPECT_TRUE(server_span.at("attributes").as_object().contains("jsonrpc.request.id"));
  EXPECT_TRUE(server_span.at("attributes").as_object().contains("mcp.protocol.version"));
}

}  // namespace
}  // namespace mcp::test
