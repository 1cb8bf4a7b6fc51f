#include "serve_demo.hpp"

#include "otlp_tracing.hpp"
#include "failure.hpp"
#include "http_listener.hpp"

#include <demo_stores.hpp>
#include <everything_demo.hpp>

#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>

namespace caduceus {

int serve_demo(const invocation& inv) {
  auto settings = demo::settings();
  settings.log_to_clients = inv.log_to_clients;
  std::optional<otlp_tracing> tracing;  // (made before the server: it sends the spans left at exit)
  if (auto options = otlp_tracing_options(inv, demo::info().name)) tracing.emplace(std::move(*options));
  mcp::server srv(demo::info(), std::move(settings));
  if (tracing) srv.middleware().use(tracing->server_link());  // first: the span times the whole chain
  demo::add_everything(srv);
  if (!inv.http_port) return mcp::run_stdio_server(srv);
  mcp::http_server_options http;
  http.host = inv.http_host;
  http.port = *inv.http_port;
  http.threads = inv.threads;
  try {
    http.session.request_state_key = mcp::configured_request_state_key(inv.request_state_key_file);
    if (!inv.redis_url.empty())  // replicas: sessions, events and live streams in Redis
      http.make_stores = demo::redis_stores(inv.redis_url);
    return serve_http(srv, std::move(http), inv);
  } catch (...) {  // the port is taken, the host is not an address...
    return report_failure(std::current_exception());
  }
}

}  // namespace caduceus
