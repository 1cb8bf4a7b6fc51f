// The Prometheus metrics page of an HTTP server (http_server_options::metrics;
// docs/observability.md, "Metrics"), and metrics_server, which serves only
// that page: an http_server with no MCP endpoint.

#include "endpoint_impl.hpp"

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/telemetry/metrics_server.hpp>

namespace mcp {

asio::awaitable<bool> http_endpoint::impl::serve_metrics(response_channel& io, const served_request& req) {
  // A browser page elsewhere must not read it (DNS rebinding): the MCP endpoint's rules.
  if (auto refusal = detail::origin_refusal(req, req.loopback, options.allowed_hosts, options.allowed_origins))
    co_return co_await reply_error(io, req, http::status::forbidden, errc::invalid_request, *refusal);
  if (req.method() != http::verb::get)
    co_return co_await reply(io, req, http::status::method_not_allowed, {}, {}, {}, "Allow: GET\r\n");
  co_return co_await reply(io, req, http::status::ok, options.metrics->expose(), telemetry::metrics_content_type, {});
}

namespace telemetry {

namespace {

http_server_options metrics_only(std::shared_ptr<const metrics_registry> registry, std::string host,
                                 std::uint16_t port, std::vector<std::string> allowed_hosts) {
  http_server_options options;
  options.host = std::move(host);
  options.port = port;
  options.allowed_hosts = std::move(allowed_hosts);
  options.threads = 1;
  options.path.clear();  // no MCP endpoint: every other path is 404
  options.legacy_sse_path.clear();
  options.metrics = std::move(registry);
  return options;
}

}  // namespace

metrics_server::metrics_server(asio::any_io_executor ex, std::shared_ptr<const metrics_registry> registry,
                               std::string host, std::uint16_t port, std::vector<std::string> allowed_hosts)
    : nothing_(std::make_unique<server>(implementation{"metrics", "1"})),
      http_(std::make_unique<http_server>(
          ex, *nothing_, metrics_only(std::move(registry), std::move(host), port, std::move(allowed_hosts)))) {}

metrics_server::~metrics_server() = default;

std::uint16_t metrics_server::local_port() const { return http_->local_port(); }

asio::awaitable<void> metrics_server::run() { co_await http_->run(); }

void metrics_server::stop() { http_->stop(); }

}  // namespace telemetry

}  // namespace mcp
