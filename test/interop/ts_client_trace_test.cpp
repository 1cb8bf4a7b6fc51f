// Trace context across SDKs: the official TypeScript MCP SDK client, traced
// with the OpenTelemetry JS SDK (ts_client_trace.mjs), calls a tool of our
// `caduceus serve-demo` over Streamable HTTP, once with its span's context in
// params._meta and once in the POST's traceparent/tracestate headers. Our
// server traces to otlp_receiver.mjs, to which the script posts its own
// spans too: each of our SERVER spans must be the child of the TS CLIENT
// span of its call, in the same trace, with the MCP attributes; through
// `caduceus gateway`, the upstream's span the child of the gateway's.

#include "child_process.hpp"
#include "node_process.hpp"
#include "test_program.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <functional>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

// The spans otlp_receiver.mjs decoded: its "span <kind> <JSON>" lines.
std::vector<json::object> decoded_spans(const std::string& output) {
  std::vector<json::object> spans;
  for (std::size_t start = 0, end; (end = output.find('\n', start)) != std::string::npos; start = end + 1) {
    const std::string_view line(output.data() + start, end - start);
    if (!line.starts_with("span ")) continue;
    spans.push_back(json::parse(line.substr(line.find(' ', 5) + 1)).as_object());
  }
  return spans;
}

// The spans of one kind ("client", "server").
std::vector<json::object> of_kind(const std::vector<json::object>& spans, std::string_view kind) {
  std::vector<json::object> found;
  for (const auto& span : spans)
    if (span.at("kind").as_string() == kind) found.push_back(span);
  return found;
}

struct traced_run {
  std::vector<json::object> spans;  ///< both sides', as the receiver decoded them
  std::string log;                  ///< what the three processes wrote, for failures
};

// The serve-demo command line for a receiver at this URL.
using demo_command = std::function<std::vector<std::string>(const std::string& receiver_url)>;

// Runs the receiver, the demo and ts_client_trace.mjs; stops the demo with
// SIGTERM (it sends the spans still queued as it exits), so that once it has
// exited the receiver has printed every span it will get.
void run_traced(const demo_command& command, traced_run& run) {
  node_process receiver({std::string(CADUCEUS_INTEROP_DIR) + "/otlp_receiver.mjs"});
  const auto receiver_url = "http://127.0.0.1:" + receiver.wait_for_line("listening ", 20s, "otlp_receiver.mjs");
  child_process demo(command(receiver_url));
  const auto url = demo.read_line(20s);
  const auto client = run_command(
      {node_program(), std::string(CADUCEUS_INTEROP_DIR) + "/ts_client_trace.mjs", url, receiver_url}, 60s);
  demo.signal(SIGTERM);
  const bool exited = demo.wait(20s);
  run.spans = decoded_spans(receiver.output());
  run.log = "ts_client_trace.mjs:\n" + client.out + client.err + "\nserve-demo:\n" + demo.err() +
            "\notlp_receiver.mjs:\n" + receiver.output();
  ASSERT_TRUE(client.finished) << run.log;
  ASSERT_EQ(client.exit_code, 0) << run.log;
  ASSERT_TRUE(exited) << run.log;
  EXPECT_EQ(demo.exit_code(), 0) << run.log;
  EXPECT_EQ(receiver.output().find("invalid"), std::string::npos) << run.log;
}

// serve-demo over HTTP with OpenTelemetry's variables unset, but for `assignments`.
std::vector<std::string> demo_with(std::vector<std::string> assignments, std::vector<std::string> flags) {
  std::vector<std::string> argv{"/usr/bin/env"};
  for (const auto* name : {"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SERVICE_NAME",
                           "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER"})
    argv.insert(argv.end(), {"-u", name});
  argv.insert(argv.end(), assignments.begin(), assignments.end());
  argv.insert(argv.end(), {test_program("caduceus"), "serve-demo", "--http", "127.0.0.1:0"});
  argv.insert(argv.end(), flags.begin(), flags.end());
  return argv;
}

// Each TS client span has one server span of ours as its child.
void expect_continued(const traced_run& run, std::string_view service) {
  const auto clients = of_kind(run.spans, "client");
  const auto servers = of_kind(run.spans, "server");
  ASSERT_EQ(clients.size(), 2u) << run.log;
  for (const auto& client : clients) {
    const auto how = client.at("attributes").at("test.propagation").as_string();
    SCOPED_TRACE(std::string("trace context in ") + how.c_str());
    std::vector<json::object> children;
    for (const auto& server : servers)
      if (server.at("traceId") == client.at("traceId")) children.push_back(server);
    ASSERT_EQ(children.size(), 1u) << run.log;
    const auto& span = children.front();
    const auto& attributes = span.at("attributes").as_object();
    EXPECT_EQ(span.at("parentSpanId"), client.at("spanId"));
    EXPECT_EQ(span.at("traceState"), client.at("traceState"));  // (the header call's: congo=t61rcWkgMzE)
    EXPECT_EQ(span.at("service").as_string(), service);
    EXPECT_EQ(span.at("name"), "tools/call echo");
    EXPECT_EQ(span.at("status"), 0);
    EXPECT_EQ(attributes.at("mcp.method.name"), "tools/call");
    EXPECT_EQ(attributes.at("gen_ai.tool.name"), "echo");
    EXPECT_EQ(attributes.at("gen_ai.operation.name"), "execute_tool");
    EXPECT_EQ(attributes.at("mcp.protocol.version"), "2025-11-25");  // (TS SDK 1.x)
    EXPECT_EQ(attributes.at("network.transport"), "tcp");
    EXPECT_EQ(attributes.at("network.protocol.name"), "http");
    EXPECT_TRUE(attributes.contains("jsonrpc.request.id"));
    EXPECT_TRUE(attributes.contains("mcp.session.id"));
  }
  EXPECT_NE(clients[0].at("traceState"), clients[1].at("traceState")) << "one call should carry a tracestate";
}

TEST(TsClientTrace, OurServerSpansContinueTheTsClientSpans) {
  traced_run run;
  ASSERT_NO_FATAL_FAILURE(run_traced(
      [](const std::string& receiver) { return demo_with({}, {"--otlp-endpoint", receiver}); }, run));
  expect_continued(run, "everything-server");  // (no OTEL_SERVICE_NAME: the server's name)
}

TEST(TsClientTrace, OpenTelemetryVariablesTurnTracingOn) {
  traced_run run;
  ASSERT_NO_FATAL_FAILURE(run_traced(
      [](const std::string& receiver) {
        return demo_with({"OTEL_EXPORTER_OTLP_ENDPOINT=" + receiver, "OTEL_SERVICE_NAME=traced-demo"}, {});
      },
      run));
  expect_continued(run, "traced-demo");
}

TEST(TsClientTrace, NoSpansWhenTheTracesExporterIsNone) {
  traced_run run;
  ASSERT_NO_FATAL_FAILURE(run_traced(
      [](const std::string& receiver) {
        return demo_with({"OTEL_EXPORTER_OTLP_ENDPOINT=" + receiver, "OTEL_TRACES_EXPORTER=none"}, {});
      },
      run));
  EXPECT_EQ(of_kind(run.spans, "client").size(), 2u) << run.log;
  EXPECT_TRUE(of_kind(run.spans, "server").empty()) << run.log;  // (the demo has exited: it would have sent them)
}

// Through `caduceus gateway --otlp-endpoint`, in front of a traced serve-demo
// over stdio: each TS client span has a gateway span as its child, and that
// one the upstream's span, all in one trace (the gateway's span context goes
// upstream in the call's _meta).
TEST(TsClientTrace, TheTraceGoesThroughTheGatewayIntoTheUpstream) {
  traced_run run;
  ASSERT_NO_FATAL_FAILURE(run_traced(
      [](const std::string& receiver) {
        auto argv = demo_with({}, {});
        argv.resize(argv.size() - 4);  // the variables alone, then the gateway instead of the demo
        const auto upstream = "'" + test_program("caduceus") + "' serve-demo --otlp-endpoint " + receiver;
        argv.insert(argv.end(), {test_program("caduceus"), "gateway", "--stdio", upstream, "--http", "127.0.0.1:0",
                                 "--otlp-endpoint", receiver});
        return argv;
      },
      run));
  const auto clients = of_kind(run.spans, "client");
  const auto servers = of_kind(run.spans, "server");
  ASSERT_EQ(clients.size(), 2u) << run.log;
  for (const auto& client : clients) {
    std::vector<json::object> gateway, upstream;
    for (const auto& server : servers) {
      if (server.at("traceId") != client.at("traceId")) continue;
      (server.at("service") == "caduceus-gateway" ? gateway : upstream).push_back(server);
    }
    ASSERT_EQ(gateway.size(), 1u) << run.log;
    ASSERT_EQ(upstream.size(), 1u) << run.log;
    EXPECT_EQ(gateway.front().at("parentSpanId"), client.at("spanId")) << run.log;
    EXPECT_EQ(upstream.front().at("parentSpanId"), gateway.front().at("spanId")) << run.log;
    EXPECT_EQ(gateway.front().at("name"), "tools/call echo");
    EXPECT_EQ(upstream.front().at("name"), "tools/call echo");
    EXPECT_EQ(upstream.front().at("service"), "everything-server");
  }
}

}  // namespace
}  // namespace mcp::test
