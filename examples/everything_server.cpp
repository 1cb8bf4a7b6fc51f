// everything-server: a demo of every server feature of the high-level API
// (the demo itself is in everything_demo.cpp; `caduceus serve-demo` serves
// the same one). The benchmarks and the interop tests drive it, so its
// contract is fixed: tools echo, add, long_task, sample, confirm, list_roots,
// emit_logs, media, toggle_bonus, touch, fail; resources demo://readme,
// demo://logo.png and demo://items/1..25; the template demo://users/{id};
// prompts greeting and with_image; completions for greeting's style and the
// template's id.
//
//   build/bin/everything-server [--stdio | --http [HOST:]PORT [--json] [--stateless] [--threads N]
//                                [--redis URL] [--websocket]] [--page-size N]
//                               [--middleware N] [--observe events|metrics|tracing]
//
// --websocket: also MCP over WebSocket on the same endpoint (ws://HOST:PORT/mcp,
// subprotocol mcp), our own extension (docs/transports.md).
// --threads N: the HTTP server's threads (default one per core).
// --mount beast|httplib|civetweb: the same endpoint (its options, auth
// included) mounted in that HTTP server instead of the built-in listener
// (docs/embedding.md), on one thread; the interop tests drive each adapter so.
// --redis URL: share sessions, events and live streams with the other
// replicas on the same Redis (redis://[[user]:password@]host[:port][/db]),
// so that a load balancer need not be sticky (docs/scale-out.md). Not with
// --stdio or --stateless.
// To count what observability costs (bench/profile ... -- --observe metrics):
// --middleware N: N pass-through middleware links around every request;
// --observe events: a subscriber (that does nothing) on every telemetry event;
// --observe metrics: the Prometheus metrics, served at /metrics with --http;
// --observe tracing: a SERVER span per request, made and then dropped (no
// exporter's work is counted). --observe may be given more than once.
// --request-state-key-file FILE: the key (hex) that signs 2026-07-28
// requestStates, shared by every replica (else CADUCEUS_REQUEST_STATE_KEY,
// else a random key of this process's own).
//
// With --auth-issuer it is an OAuth-protected resource server (docs/auth.md):
//   --auth-issuer URL           the authorization server (its tokens' `iss`)
//   --auth-resource URL         this server's resource id (tokens' `aud`);
//                               default http(s)://HOST:PORT/mcp (PORT not 0)
//   --auth-scopes "A B"         scopes every request needs
//   --auth-introspection-url URL  check tokens by introspection (RFC 7662)
//                               instead of as JWTs, authenticating with
//   --auth-client-id ID --auth-client-secret SECRET
//   --auth-ca-file FILE         CA certificates to trust for the issuer
//   --auth-allow-http           accept an http:// issuer, and one on this machine or
//                               its network (loopback tests only)

#include "demo_stores.hpp"
#include "everything_demo.hpp"
#include "mounted_server.hpp"

#include <mcp/auth/introspection_verifier.hpp>
#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>
#include <mcp/telemetry/events.hpp>
#include <mcp/telemetry/mcp_tracing.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <cstdlib>
#include <map>
#include <sstream>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <string_view>

namespace {

std::string flag(const std::map<std::string, std::string, std::less<>>& flags, std::string_view name) {
  const auto it = flags.find(name);
  return it == flags.end() ? std::string() : it->second;
}

// OAuth protection from the --auth-* flags: JWTs checked with the issuer's
// keys, or tokens introspected at --auth-introspection-url.
mcp::http_auth_options protection(const mcp::http_server_options& http,
                                  const std::map<std::string, std::string, std::less<>>& flags, bool allow_http) {
  const auto issuer = flag(flags, "issuer");
  if (issuer.empty()) throw std::invalid_argument("--auth-issuer is required with the other --auth- flags");
  auto resource = flag(flags, "resource");
  if (resource.empty()) {
    if (http.port == 0) throw std::invalid_argument("--auth-resource is required with port 0");
    resource = (http.tls_certificate_file.empty() ? "http://" : "https://") + http.host + ":" +
               std::to_string(http.port) + http.path;
  }
  mcp::http_auth_options options;
  options.resource = resource;
  options.authorization_servers = {issuer};
  std::istringstream scopes(flag(flags, "scopes"));
  for (std::string scope; scopes >> scope;) options.required_scopes.push_back(scope);
  const auto introspection_url = flag(flags, "introspection-url");
  const auto ca_file = flag(flags, "ca-file");
  if (introspection_url.empty()) {
    mcp::auth::jwt_verifier_options jwt;
    jwt.issuer = issuer;
    jwt.audience = resource;
    jwt.ca_file = ca_file;
    jwt.allow_http = allow_http;
    jwt.allow_private_addresses = allow_http;
    options.make_verifier = [jwt](mcp::asio::any_io_executor ex) { return mcp::auth::make_jwt_verifier(ex, jwt); };
  } else {
    mcp::auth::introspection_verifier_options introspection;
    introspection.endpoint = introspection_url;
    introspection.issuer = issuer;
    introspection.audience = resource;
    introspection.client_id = flag(flags, "client-id");
    introspection.client_secret = flag(flags, "client-secret");
    introspection.ca_file = ca_file;
    introspection.allow_http = allow_http;
    introspection.allow_private_addresses = allow_http;
    options.make_verifier = [introspection](mcp::asio::any_io_executor ex) {
      return mcp::auth::make_introspection_verifier(ex, introspection);
    };
  }
  return options;
}

// Takes spans and keeps none: what tracing costs the server, without an export.
class dropped_spans final : public mcp::telemetry::span_exporter {
 public:
  void export_span(mcp::telemetry::span_record) override {}
};

}  // namespace

int main(int argc, char** argv) {
  mcp::server_options settings = demo::settings();
  std::optional<mcp::http_server_options> http;
  bool json_only = false;
  bool stateless = false;
  bool stdio = false;
  bool websocket = false;
  std::string mount;  // --mount: the endpoint in this HTTP server (mounted_server.hpp), not the listener
  std::string redis_url;  // --redis: empty, no cluster
  unsigned threads = 0;  // one per core
  std::string request_state_key_file;
  std::string tls_certificate;
  std::string tls_key;
  std::map<std::string, std::string, std::less<>> auth;  // --auth-* flags, by name
  bool auth_allow_http = false;
  std::size_t middleware_links = 0;
  mcp::telemetry::subscription every_event;
  std::shared_ptr<mcp::telemetry::metrics_registry> metrics;
  std::optional<mcp::telemetry::mcp_metrics> metrics_feed;
  bool tracing = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--stdio") {
      stdio = true;
      continue;
    }
    if (arg == "--redis" && i + 1 < argc) {
      redis_url = argv[++i];
      continue;
    }
    if (arg == "--auth-allow-http") {
      auth_allow_http = true;
      continue;
    }
    if (arg.starts_with("--auth-") && i + 1 < argc) {
      auth[std::string(arg.substr(7))] = argv[++i];
      continue;
    }
    if (arg == "--websocket") {
      websocket = true;
      continue;
    }
    if (arg == "--mount" && i + 1 < argc) {
      mount = argv[++i];
      continue;
    }
    if (arg == "--json") {
      json_only = true;
      continue;
    }
    if (arg == "--stateless") {
      stateless = true;
      continue;
    }
    if (arg == "--request-state-key-file" && i + 1 < argc) {
      request_state_key_file = argv[++i];
      continue;
    }
    if (arg == "--threads" && i + 1 < argc) {
      threads = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
      continue;
    }
    if (arg == "--middleware" && i + 1 < argc) {
      middleware_links = std::strtoul(argv[++i], nullptr, 10);
      continue;
    }
    if (arg == "--observe" && i + 1 < argc) {
      const std::string_view what = argv[++i];
      if (what == "events") {
        every_event = mcp::telemetry::attach_all([](const mcp::telemetry::event_data&) {});
        continue;
      }
      if (what == "metrics") {
        metrics = std::make_shared<mcp::telemetry::metrics_registry>();
        metrics_feed.emplace(mcp::telemetry::record_mcp_metrics(*metrics));
        continue;
      }
      if (what == "tracing") {
        tracing = true;
        continue;
      }
    }
    if (arg == "--page-size" && i + 1 < argc) {
      settings.page_size = std::strtoul(argv[++i], nullptr, 10);
      continue;
    }
    if (arg == "--http" && i + 1 < argc) {  // [HOST:]PORT
      const std::string address = argv[++i];
      http.emplace();
      const auto colon = address.rfind(':');
      if (colon != std::string::npos) http->host = address.substr(0, colon);
      http->port = static_cast<std::uint16_t>(std::stoul(address.substr(colon == std::string::npos ? 0 : colon + 1)));
      continue;
    }
    if (arg == "--tls" && i + 2 < argc) {  // CERT.pem KEY.pem
      tls_certificate = argv[++i];
      tls_key = argv[++i];
      continue;
    }
    std::cerr << "usage: everything-server [--stdio | --http [HOST:]PORT [--json] [--stateless] [--threads N] [--websocket] "
                 "[--redis URL] [--tls CERT.pem KEY.pem] [--mount beast|httplib|civetweb] [--auth-issuer URL [--auth-resource URL] [--auth-scopes \"A B\"] "
                 "[--auth-introspection-url URL --auth-client-id ID --auth-client-secret SECRET] "
                 "[--auth-ca-file FILE] [--auth-allow-http]]] [--page-size N] [--middleware N] "
                 "[--observe events|metrics|tracing]\n";
    return 2;
  }
  if (!redis_url.empty() && (stdio || !http)) {
    std::cerr << "everything-server: --redis needs --http (replicas share HTTP sessions; not with --stdio)\n";
    return 2;
  }
  if (!mount.empty() && (!http || !redis_url.empty() || !tls_certificate.empty())) {
    std::cerr << "everything-server: --mount needs --http (on 127.0.0.1), and goes without --redis and --tls\n";
    return 2;
  }
  if (!redis_url.empty() && stateless) {
    std::cerr << "everything-server: --redis does not go with --stateless (a stateless server has no sessions "
                 "to share)\n";
    return 2;
  }
  mcp::server srv(demo::info(), settings);
  demo::add_everything(srv);
  if (tracing) {
    auto tracer = std::make_shared<const mcp::telemetry::tracer>(std::make_shared<dropped_spans>());
    srv.middleware().use(mcp::telemetry::server_tracing(std::move(tracer)));
  }
  for (std::size_t n = 0; n < middleware_links; ++n) srv.middleware().use(std::make_shared<mcp::server_middleware>());
  if (http) {
    http->json_only = json_only;
    http->stateless = stateless;
    http->websocket = websocket;
    http->threads = threads;
    http->metrics = metrics;
    http->tls_certificate_file = tls_certificate;
    http->tls_private_key_file = tls_key;
    try {
      http->session.request_state_key = mcp::configured_request_state_key(request_state_key_file);
      if (!auth.empty()) http->auth = protection(*http, auth, auth_allow_http);
      if (!redis_url.empty()) http->make_stores = demo::redis_stores(redis_url);
      if (!mount.empty()) return serve_mounted(mount, srv, *http, http->port);  // (its first line: the URL)
      // The first line of stdout is the endpoint: a caller that asked for port 0 reads it.
      const auto result = mcp::run_http_server(srv, *http, [](std::string_view url) { std::cout << url << std::endl; });
      if (result.handlers_left_running) std::_Exit(result.exit_code);  // (they still use `srv`)
      return result.exit_code;
    } catch (const std::exception& e) {  // the port is taken, a TLS file is unreadable...
      std::cerr << "everything-server: " << e.what() << "\n";
      return 1;
    }
  }
  return mcp::run_stdio_server(srv);
}
