#pragma once
// Prometheus metrics on a port of their own: for a server that has no HTTP
// listener (stdio), or to keep the metrics off the MCP port. It answers
// `GET /metrics` with the registry's text and 404 to anything else, under
// the Host and Origin rules of the HTTP server (docs/observability.md,
// "Metrics"). An HTTP server can serve the page itself instead
// (http_server_options::metrics).
//
//   auto registry = std::make_shared<mcp::telemetry::metrics_registry>();
//   auto feed = mcp::telemetry::record_mcp_metrics(*registry);
//   mcp::telemetry::metrics_server metrics(io.get_executor(), registry, "127.0.0.1", 9464);
//   asio::co_spawn(io, metrics.run(), asio::detached);

#include <mcp/export.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mcp {
class http_server;
class server;
}  // namespace mcp

namespace mcp::telemetry {

/// An HTTP server of one page: `GET /metrics` answers the registry's
/// text; see the top of this file.
class MCP_API metrics_server {
 public:
  /// Binds the listening socket (throws system_error when it cannot); port 0 picks a free one.
  /// `allowed_hosts`: the Host header values the page answers besides
  /// localhost ones (http_server_options::allowed_hosts): set it when `host`
  /// is not a loopback address, or any name pointed at the port reads it.
  metrics_server(boost::asio::any_io_executor ex, std::shared_ptr<const metrics_registry> registry,
                 std::string host, std::uint16_t port, std::vector<std::string> allowed_hosts = {});
  /// Stops the server, as stop() does.
  ~metrics_server();
  metrics_server(const metrics_server&) = delete;
  metrics_server& operator=(const metrics_server&) = delete;

  /// The port it listens on (the one picked, when constructed with 0).
  std::uint16_t local_port() const;
  /// Serves until stop().
  boost::asio::awaitable<void> run();
  /// Call from any thread.
  void stop();

 private:
  std::unique_ptr<server> nothing_;  // the behaviour the HTTP server needs, never reached
  std::unique_ptr<http_server> http_;
};

}  // namespace mcp::telemetry
