// Prometheus metrics (docs/observability.md, "Metrics") as a user meets them:
// a real Prometheus (Debian's) scrapes a running server's /metrics while a
// real client calls it, and the series are read back through Prometheus's
// HTTP query API; promtool finds nothing wrong with the page; the page keeps
// to the Host and Origin rules; metrics_server serves it on a port of its own,
// and `caduceus serve-demo --metrics` on its listener; the Grafana dashboard
// asks for metrics the page has. What needs prometheus (or promtool) is
// skipped where it is not installed.

#include <mcp/client/client.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/telemetry/metrics.hpp>
#include <mcp/telemetry/metrics_server.hpp>
#include <mcp/transport/http_client.hpp>

#include "child_process.hpp"
#include "free_port.hpp"
#include "http_client.hpp"
#include "http_test_server.hpp"
#include "legacy_client.hpp"
#include "prometheus_server.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <utility>
#include <vector>
#include <string>

#include <unistd.h>

namespace mcp::test {
namespace {

constexpr const char* promtool = "/usr/bin/promtool";

std::string url_of(std::uint16_t port) { return "http://127.0.0.1:" + std::to_string(port) + "/mcp"; }

// A client with a session (the 2025 era) on the server at `port`.
asio::awaitable<std::unique_ptr<client>> connect_client(std::uint16_t port) {
  auto ex = co_await asio::this_coro::executor;
  auto transport = co_await connect_http(ex, url_of(port));
  auto c = std::make_unique<client>(ex, legacy_only());
  co_await c->connect(std::move(transport));
  co_return c;
}

// Two echo calls and one call of a tool that does not exist (-32602).
asio::awaitable<int> make_traffic(client& c) {
  for (int i = 0; i < 2; ++i) {
    json::object args{{"text", "hello"}};
    co_await c.call_tool("echo", std::move(args));
  }
  int code = 0;
  try {
    json::object none;
    co_await c.call_tool("no_such_tool", std::move(none));
  } catch (const protocol_error& e) {
    code = e.error().code;
  }
  co_return code;
}

// The value of the one series `query` selects in Prometheus, or nullopt
// while it selects none.
asio::awaitable<std::optional<double>> query_value(int prometheus_port, const std::string& query) {
  http_request req(http::verb::get,
                   "/api/v1/query?query=" + boost::urls::encode(query, boost::urls::unreserved_chars));
  const auto reply = co_await http_call(static_cast<std::uint16_t>(prometheus_port), req);
  if (reply.status != 200) throw std::runtime_error("Prometheus answered " + std::to_string(reply.status));
  const auto doc = json::parse(reply.body);
  const auto& result = doc.at("data").at("result").as_array();
  if (result.empty()) co_return std::nullopt;
  if (result.size() > 1) throw std::runtime_error(query + " selects several series: " + reply.body);
  co_return std::stod(std::string(result[0].at("value").at(1).as_string()));
}

// Waits (20 s at most) until `query` reads `expected` (Prometheus scrapes
// every second); what it read last.
asio::awaitable<std::optional<double>> wait_for_value(int prometheus_port, const std::string& query,
                                                      double expected) {
  const auto until = clock_type::now() + 20s;
  std::optional<double> value;
  for (;;) {
    value = co_await query_value(prometheus_port, query);
    if ((value && *value == expected) || clock_type::now() >= until) co_return value;
    co_await sleep_for(200ms);
  }
}

TEST(Prometheus, ReadsBackRequestsErrorsAndTheOpenSession) {
  if (!prometheus_server::available()) GTEST_SKIP() << prometheus_server::program << " is not installed";
  auto registry = std::make_shared<telemetry::metrics_registry>();
  const auto feed = telemetry::record_mcp_metrics(*registry);
  http_server_options options;
  options.port = static_cast<std::uint16_t>(free_port());
  options.metrics = registry;
  prometheus_server prometheus("127.0.0.1:" + std::to_string(options.port));
  const int api = prometheus.port();
  run_http_test(
      options,
      [&](test_server& s) -> asio::awaitable<void> {
        auto c = co_await connect_client(s.port());
        const int code = co_await make_traffic(*c);
        EXPECT_EQ(code, -32602);
        // What a dashboard would ask, once Prometheus has scraped it.
        const auto calls =
            co_await wait_for_value(api, R"(mcp_server_requests_total{mcp_method_name="tools/call",outcome="ok"})", 2);
        EXPECT_EQ(calls, 2.0) << prometheus.log();
        const auto errors = co_await wait_for_value(
            api, R"(mcp_server_request_errors_total{mcp_method_name="tools/call",error_code="-32602"})", 1);
        EXPECT_EQ(errors, 1.0);
        const auto echo_timed = co_await wait_for_value(
            api, R"(sum(mcp_server_operation_duration_seconds_count{gen_ai_tool_name="echo",error_type=""}))", 2);
        EXPECT_EQ(echo_timed, 2.0);
        const auto open_sessions = co_await wait_for_value(api, R"(mcp_server_sessions_open{transport="http"})", 1);
        EXPECT_EQ(open_sessions, 1.0);
        const auto up = co_await wait_for_value(api, R"(up{job="caduceus"})", 1);
        EXPECT_EQ(up, 1.0);
        const auto received = co_await query_value(api, "mcp_server_received_bytes_total");
        EXPECT_GT(received.value_or(0), 0.0);
        co_await c->close();
        // The session ended with its client (DELETE): the gauge follows.
        const auto after = co_await wait_for_value(api, R"(mcp_server_sessions_open{transport="http"})", 0);
        EXPECT_EQ(after, 0.0);
      },
      60s);
}

// GET /metrics on `port` with `origin` (none when empty).
asio::awaitable<http_reply> get_metrics(std::uint16_t port, std::string origin = {}) {
  http_request req(http::verb::get, "/metrics");
  if (!origin.empty()) req.header("Origin", std::move(origin));
  co_return co_await http_call(port, req);
}

TEST(Prometheus, PromtoolFindsNothingWrongWithThePage) {
  if (::access(promtool, X_OK) != 0) GTEST_SKIP() << promtool << " is not installed";
  auto registry = std::make_shared<telemetry::metrics_registry>();
  const auto feed = telemetry::record_mcp_metrics(*registry);
  // A user's metric beside the library's, with values to escape.
  registry->add_counter("app_odd_labels_total", "Label values \"quoted\", with \\ and\nnewlines.", {"value"})
      .add({"a\"b\\c\nd"});
  http_server_options options;
  options.metrics = registry;
  std::string page;
  run_http_test(options, [&](test_server& s) -> asio::awaitable<void> {
    auto c = co_await connect_client(s.port());
    co_await make_traffic(*c);
    const auto reply = co_await get_metrics(s.port());
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.header(http::field::content_type), telemetry::metrics_content_type);
    page = reply.body;
    co_await c->close();
  });
  ASSERT_NE(page.find("mcp_server_operation_duration_seconds_bucket{"), std::string::npos) << page;
  char path[] = "/tmp/caduceus-metrics-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << page;
  const auto checked = run_command({"/bin/sh", "-c", std::string(promtool) + " check metrics < " + path});
  ::unlink(path);
  EXPECT_EQ(checked.exit_code, 0) << checked.out << checked.err << "\n" << page;
  EXPECT_EQ(checked.out + checked.err, "") << page;
}

TEST(Prometheus, ThePageKeepsToTheHostAndOriginRules) {
  auto registry = std::make_shared<telemetry::metrics_registry>();
  http_server_options options;
  options.metrics = registry;
  run_http_test(options, [&](test_server& s) -> asio::awaitable<void> {
    const auto local = co_await get_metrics(s.port(), "http://localhost:3000");
    EXPECT_EQ(local.status, 200u);
    const auto foreign = co_await get_metrics(s.port(), "https://evil.example");
    EXPECT_EQ(foreign.status, 403u);
    http_request rebound(http::verb::get, "/metrics");
    rebound.set("Host", "evil.example");
    const auto rebinding = co_await http_call(s.port(), rebound);
    EXPECT_EQ(rebinding.status, 403u);
    http_request post(http::verb::post, "/metrics");
    const auto posted = co_await http_call(s.port(), post);
    EXPECT_EQ(posted.status, 405u);
  });
}

// Every query of the Grafana dashboard (docs/grafana/caduceus.json), with
// Grafana's variables given values.
std::vector<std::string> dashboard_queries() {
  std::ifstream file(std::string(CADUCEUS_DOCS_DIR) + "/grafana/caduceus.json");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto dashboard = json::parse(text);
  std::vector<std::string> queries;
  for (const auto& panel : dashboard.at("panels").as_array()) {
    const auto* targets = panel.as_object().if_contains("targets");
    if (!targets) continue;
    for (const auto& target : targets->as_array()) {
      std::string expr(target.at("expr").as_string());
      for (const auto& [variable, value] : {std::pair<std::string, std::string>{"$__rate_interval", "1m"},
                                            {"$instance", ".*"}})
        for (auto at = expr.find(variable); at != std::string::npos; at = expr.find(variable))
          expr.replace(at, variable.size(), value);
      queries.push_back(std::move(expr));
    }
  }
  return queries;
}

TEST(Prometheus, TheDashboardAsksForMetricsThePageHasInQueriesPrometheusTakes) {
  const auto queries = dashboard_queries();
  ASSERT_GT(queries.size(), 20u);
  // Each metric named (before its selector's brace) is on the page.
  telemetry::metrics_registry registry;
  const auto feed = telemetry::record_mcp_metrics(registry);
  const auto page = registry.expose();
  const std::regex metric_name(R"(\b((mcp|http_server)_[a-z_]+?)(_bucket|_count|_sum)?\{)");
  for (const auto& query : queries)
    for (auto it = std::sregex_iterator(query.begin(), query.end(), metric_name); it != std::sregex_iterator(); ++it)
      EXPECT_NE(page.find("# TYPE " + (*it)[1].str() + " "), std::string::npos) << (*it)[1] << " in " << query;
  // Prometheus parses each one.
  if (!prometheus_server::available()) GTEST_SKIP() << prometheus_server::program << " is not installed";
  prometheus_server prometheus("127.0.0.1:9");  // (nothing to scrape)
  run_test([&]() -> asio::awaitable<void> {
    for (const auto& query : queries) {
      http_request req(http::verb::get,
                       "/api/v1/query?query=" + boost::urls::encode(query, boost::urls::unreserved_chars));
      const auto reply = co_await http_call(static_cast<std::uint16_t>(prometheus.port()), req);
      EXPECT_EQ(reply.status, 200u) << query << "\n" << reply.body;
    }
  });
}

TEST(Prometheus, MetricsServerServesThePageOnAPortOfItsOwn) {
  auto registry = std::make_shared<telemetry::metrics_registry>();
  registry->add_counter("app_ticks_total", "Ticks.").add({}, 3);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    telemetry::metrics_server metrics(ex, registry, "127.0.0.1", 0);
    bool stopped = false;
    asio::co_spawn(ex, metrics.run(), [&](std::exception_ptr) { stopped = true; });
    const auto page = co_await get_metrics(metrics.local_port());
    EXPECT_EQ(page.status, 200u);
    EXPECT_NE(page.body.find("app_ticks_total 3\n"), std::string::npos) << page.body;
    http_request mcp_post(http::verb::post, "/mcp");
    const auto nothing_else = co_await http_call(metrics.local_port(), mcp_post);
    EXPECT_EQ(nothing_else.status, 404u);
    metrics.stop();
    while (!stopped) co_await sleep_for(10ms);  // (run_test's deadline bounds it)
  });
}

TEST(Prometheus, MetricsServerAnswersTheHostsItIsGiven) {
  auto registry = std::make_shared<telemetry::metrics_registry>();
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    telemetry::metrics_server metrics(ex, registry, "127.0.0.1", 0, {"metrics.internal"});
    bool stopped = false;
    asio::co_spawn(ex, metrics.run(), [&](std::exception_ptr) { stopped = true; });
    for (const auto& [host, status] : {std::pair{"metrics.internal", 200u}, std::pair{"evil.example", 403u}}) {
      http_request get(http::verb::get, "/metrics");
      get.set("Host", host);
      const auto reply = co_await http_call(metrics.local_port(), get);
      EXPECT_EQ(reply.status, status) << host;
    }
    metrics.stop();
    while (!stopped) co_await sleep_for(10ms);  // (run_test's deadline bounds it)
  });
}

TEST(Prometheus, ServeDemoServesItsMetricsWithDashMetrics) {
  const std::string caduceus = test_program("caduceus");
  child_process demo({caduceus, "serve-demo", "--http", "127.0.0.1:0", "--metrics"});
  const auto url = demo.read_line(10s);
  ASSERT_TRUE(url.starts_with("http://127.0.0.1:")) << url;
  const auto add = run_command({caduceus, "--url", url, "call", "add", R"({"a": 2, "b": 3})"});
  EXPECT_EQ(add.exit_code, 0) << add.err;
  const auto port = static_cast<std::uint16_t>(std::stoi(url.substr(url.rfind(':') + 1)));
  std::string page;
  run_test([&]() -> asio::awaitable<void> {
    const auto reply = co_await get_metrics(port);
    EXPECT_EQ(reply.status, 200u);
    page = reply.body;
  });
  EXPECT_NE(page.find("mcp_server_tool_calls_total{gen_ai_tool_name=\"add\",outcome=\"ok\"} 1\n"), std::string::npos)
      << page;
  demo.stop(5s);
}

}  // namespace
}  // namespace mcp::test
