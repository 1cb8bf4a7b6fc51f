// The metrics registry and its Prometheus text exposition (format 0.0.4).

#include <mcp/error.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

namespace mcp::telemetry {
namespace {

TEST(Metrics, CounterWritesHelpTypeAndSamples) {
  metrics_registry registry;
  auto& calls = registry.add_counter("app_calls_total", "Calls served.", {"method", "outcome"});
  calls.add({"tools/call", "ok"});
  calls.add({"tools/call", "ok"}, 2);
  calls.add({"ping", "error"});
  EXPECT_EQ(registry.expose(),
            "# HELP app_calls_total Calls served.\n"
            "# TYPE app_calls_total counter\n"
            "app_calls_total{method=\"ping\",outcome=\"error\"} 1\n"
            "app_calls_total{method=\"tools/call\",outcome=\"ok\"} 3\n");
  EXPECT_EQ(calls.value({"tools/call", "ok"}), 3);
  EXPECT_EQ(calls.value({"never", "seen"}), 0);
}

TEST(Metrics, UnlabelledMetricsReadZeroBeforeAnything) {
  metrics_registry registry;
  registry.add_counter("bytes_total", "Bytes.");
  registry.add_gauge("open", "Open now.");
  EXPECT_EQ(registry.expose(),
            "# HELP bytes_total Bytes.\n# TYPE bytes_total counter\nbytes_total 0\n"
            "# HELP open Open now.\n# TYPE open gauge\nopen 0\n");
}

TEST(Metrics, LabelValuesAndHelpAreEscaped) {
  metrics_registry registry;
  auto& names = registry.add_counter("names_total", "A \\ help\nwith \"quotes\".", {"name"});
  names.add({"a\"b\\c\nd"});
  EXPECT_EQ(registry.expose(),
            "# HELP names_total A \\\\ help\\nwith \"quotes\".\n"
            "# TYPE names_total counter\n"
            "names_total{name=\"a\\\"b\\\\c\\nd\"} 1\n");
}

TEST(Metrics, GaugeGoesUpAndDownAndIsSet) {
  metrics_registry registry;
  auto& open = registry.add_gauge("sessions_open", "Sessions.", {"transport"});
  open.add({"http"}, 1);
  open.add({"http"}, 1);
  open.add({"http"}, -1);
  open.set({"stdio"}, 0.5);
  EXPECT_EQ(open.value({"http"}), 1);
  EXPECT_NE(registry.expose().find("sessions_open{transport=\"stdio\"} 0.5\n"), std::string::npos);
}

TEST(Metrics, HistogramBucketsAreCumulativeWithInfSumAndCount) {
  metrics_registry registry;
  auto& latency = registry.add_histogram("latency_seconds", "Latency.", {"method"}, {0.1, 1, 10});
  latency.observe({"ping"}, 0.05);
  latency.observe({"ping"}, 0.1);  // a bound is in its own bucket (le: less or equal)
  latency.observe({"ping"}, 5);
  latency.observe({"ping"}, 50);
  EXPECT_EQ(registry.expose(),
            "# HELP latency_seconds Latency.\n"
            "# TYPE latency_seconds histogram\n"
            "latency_seconds_bucket{method=\"ping\",le=\"0.1\"} 2\n"
            "latency_seconds_bucket{method=\"ping\",le=\"1\"} 2\n"
            "latency_seconds_bucket{method=\"ping\",le=\"10\"} 3\n"
            "latency_seconds_bucket{method=\"ping\",le=\"+Inf\"} 4\n"
            "latency_seconds_sum{method=\"ping\"} 55.15\n"
            "latency_seconds_count{method=\"ping\"} 4\n");
  EXPECT_EQ(latency.count({"ping"}), 4u);
}

TEST(Metrics, HistogramWithoutLabels) {
  metrics_registry registry;
  auto& sizes = registry.add_histogram("size_bytes", "Sizes.", {}, {100});
  sizes.observe({}, 7);
  EXPECT_EQ(registry.expose(),
            "# HELP size_bytes Sizes.\n# TYPE size_bytes histogram\n"
            "size_bytes_bucket{le=\"100\"} 1\nsize_bytes_bucket{le=\"+Inf\"} 1\n"
            "size_bytes_sum 7\nsize_bytes_count 1\n");
}

TEST(Metrics, LabelSetsBeyondTheBoundGoToOther) {
  metrics_registry registry(3);
  auto& tools = registry.add_counter("tool_calls_total", "Calls.", {"tool", "outcome"});
  for (int i = 0; i < 10; ++i) tools.add({"tool-" + std::to_string(i), "ok"});
  tools.add({"tool-0", "ok"});  // a label set it keeps goes on being counted as itself
  EXPECT_EQ(tools.value({"tool-0", "ok"}), 2);
  EXPECT_EQ(tools.value({"tool-2", "ok"}), 1);
  EXPECT_EQ(tools.value({"tool-3", "ok"}), 0);  // (counted under other)
  EXPECT_EQ(tools.value({"other", "other"}), 7);
  EXPECT_EQ(tools.series_count(), 4u);  // three of their own, and other
  EXPECT_NE(registry.expose().find("tool_calls_total{tool=\"other\",outcome=\"other\"} 7\n"), std::string::npos);
}

TEST(Metrics, RefusesBadNamesLabelsAndValues) {
  metrics_registry registry;
  EXPECT_THROW(registry.add_counter("0bad", "x"), mcp::invalid_argument);
  EXPECT_THROW(registry.add_counter("bad-name", "x"), mcp::invalid_argument);
  EXPECT_THROW(registry.add_counter("ok_total", "x", {"bad label"}), mcp::invalid_argument);
  EXPECT_THROW(registry.add_histogram("h", "x", {"le"}, {1}), mcp::invalid_argument);
  EXPECT_THROW(registry.add_histogram("h", "x", {}, {2, 1}), mcp::invalid_argument);
  auto& c = registry.add_counter("c_total", "x", {"a"});
  EXPECT_THROW(c.add({"a", "b"}), mcp::invalid_argument);
  EXPECT_THROW(c.add({"a"}, -1), mcp::invalid_argument);
  // The same metric again is the same metric; another type under its name is refused.
  EXPECT_EQ(&registry.add_counter("c_total", "x", {"a"}), &c);
  EXPECT_THROW(registry.add_gauge("c_total", "x", {"a"}), mcp::invalid_argument);
  // So is a histogram of that name with other buckets.
  auto& h = registry.add_histogram("h_seconds", "x", {}, {1, 2});
  EXPECT_EQ(&registry.add_histogram("h_seconds", "x", {}, {1, 2}), &h);
  EXPECT_THROW(registry.add_histogram("h_seconds", "x", {}, {1, 5}), mcp::invalid_argument);
}

TEST(Metrics, AHistogramCountsNaNInItsInfBucket) {
  metrics_registry registry;
  auto& h = registry.add_histogram("v", "Values.", {}, {1});
  h.observe({}, std::nan(""));
  EXPECT_EQ(registry.expose(),
            "# HELP v Values.\n# TYPE v histogram\n"
            "v_bucket{le=\"1\"} 0\nv_bucket{le=\"+Inf\"} 1\n"
            "v_sum NaN\nv_count 1\n");
}

TEST(Metrics, CountsFromManyThreads) {
  metrics_registry registry;
  auto& c = registry.add_counter("hits_total", "Hits.", {"who"});
  auto& h = registry.add_histogram("t_seconds", "T.", {"who"}, {1});
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 1000; ++i) {
        c.add({t % 2 ? "odd" : "even"});
        h.observe({"all"}, 0.5);
      }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.value({"odd"}) + c.value({"even"}), 4000);
  EXPECT_EQ(h.count({"all"}), 4000u);
}

TEST(Metrics, TheLibraryMetricsFollowItsEvents) {
  metrics_registry registry;
  auto feed = record_mcp_metrics(registry);
  emit(event::server_request_stop, {{"duration", 0.003}},
       {{"method", "tools/call"}, {"target", "echo"}, {"outcome", "error"}, {"error_code", -32602},
        {"error_type", "-32602"}, {"protocol_version", "2025-06-18"}, {"transport", "http"}});
  emit(event::session_created, {}, {{"session_id", "s1"}, {"transport", "http"}});
  emit(event::connection_accepted, {}, {{"peer", "127.0.0.1:1"}, {"transport", "http"}});
  emit(event::connection_refused, {}, {{"peer", "127.0.0.1:2"}, {"reason", "max_connections"}});
  const auto text = registry.expose();
  EXPECT_NE(text.find("mcp_server_requests_total{mcp_method_name=\"tools/call\",outcome=\"error\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("mcp_server_request_errors_total{mcp_method_name=\"tools/call\",error_code=\"-32602\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\","
                      "gen_ai_tool_name=\"echo\",error_type=\"-32602\",mcp_protocol_version=\"2025-06-18\","
                      "network_transport=\"tcp\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("mcp_server_sessions_open{transport=\"http\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("mcp_server_connections_open 1\n"), std::string::npos);
  EXPECT_NE(text.find("mcp_server_connections_refused_total{reason=\"max_connections\"} 1\n"), std::string::npos);
  feed.detach();
  emit(event::connection_accepted, {}, {{"peer", "127.0.0.1:3"}, {"transport", "http"}});
  EXPECT_NE(registry.expose().find("mcp_server_connections_open 1\n"), std::string::npos);
}

}  // namespace
}  // namespace mcp::telemetry
