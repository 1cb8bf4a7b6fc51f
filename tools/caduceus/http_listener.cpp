#include "http_listener.hpp"

#include <mcp/server/access_log.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <string_view>

namespace caduceus {

int serve_http(mcp::server_behaviour& behaviour, mcp::http_server_options http, const invocation& inv) {
  mcp::telemetry::subscription access_log;
  if (inv.access_log) access_log = mcp::enable_access_log();
  mcp::telemetry::mcp_metrics metrics_feed;  // (fed while the server runs)
  if (inv.metrics) {
    auto registry = std::make_shared<mcp::telemetry::metrics_registry>();
    metrics_feed = mcp::telemetry::record_mcp_metrics(*registry);
    http.metrics = std::move(registry);
  }
  // The first line of stdout is the endpoint: a caller that asked for port 0 reads it.
  const auto result =
      mcp::run_http_server(behaviour, std::move(http), [](std::string_view url) { std::cout << url << std::endl; });
  if (result.handlers_left_running) std::_Exit(result.exit_code);
  return result.exit_code;
}

}  // namespace caduceus
