#include "serve_demo.hpp"

#include "demo_tracing.hpp"
#include "failure.hpp"

#include <demo_stores.hpp>
#include <everything_demo.hpp>

#include <mcp/server/access_log.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <cstdlib>
#include <iostream>
#include <string_view>

namespace caduceus {

int serve_demo(const invocation& inv) {
  auto settings = demo::settings();
  settings.log_to_clients = inv.log_to_clients;
  std::optional<demo_tracing> tracing;  // (made before the server: it sends the spans left at exit)
  if (auto options = demo_tracing_options(inv, demo::info().name)) tracing.emplace(std::move(*options));
  mcp::server srv(demo::info(), std::move(settings));
  if (tracing) srv.middleware().use(tracing->server_link());  // first: the span times the whole chain
  demo::add_everything(srv);
  if (!inv.http_port) return mcp::run_stdio_server(srv);
  mcp::http_server_options http;
  http.host = inv.http_host;
  http.port = *inv.http_port;
  http.threads = inv.threads;
  mcp::telemetry::subscription access_log;
  if (inv.access_log) access_log = mcp::enable_access_log();
  mcp::telemetry::mcp_metrics metrics_feed;  // (fed while the server runs)
  if (inv.metrics) {
    auto registry = std::make_shared<mcp::telemetry::metrics_registry>();
    metrics_feed = mcp::telemetry::record_mcp_metrics(*registry);
    http.metrics = std::move(registry);
  }
  try {
    http.session.request_state_key = mcp::configured_request_state_key(inv.request_state_key_file);
    if (!inv.redis_url.empty())  // replicas: sessions, events and live streams in Redis
      http.make_stores = demo::redis_stores(inv.redis_url);
    // The first line of stdout is the endpoint: a caller that asked for port 0 reads it.
    const auto result = mcp::run_http_server(srv, http, [](std::string_view url) { std::cout << url << std::endl; });
    if (result.handlers_left_running) std::_Exit(result.exit_code);  // (they still use `srv`)
    return result.exit_code;
  } catch (...) {  // the port is taken, the host is not an address...
    return report_failure(std::current_exception());
  }
}

}  // namespace caduceus
