#pragma once
// The tracing of serve-demo and gateway (docs/cli.md, "serve-demo"): SERVER spans of every
// request sent to an OpenTelemetry collector over OTLP/HTTP, when
// --otlp-endpoint or OpenTelemetry's own variables ask for it.

#include "arguments.hpp"

#include <mcp/server/middleware.hpp>
#include <mcp/telemetry/otlp_exporter.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

namespace caduceus {

/// The exporter's options, or nullopt when tracing is off. On with
/// `--otlp-endpoint URL` (the collector's base URL: spans go to
/// URL/v1/traces), else when OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
/// OTEL_EXPORTER_OTLP_ENDPOINT is set, unless OTEL_SDK_DISABLED is true or
/// OTEL_TRACES_EXPORTER names no `otlp` exporter (`none`). The service name
/// is OTEL_SERVICE_NAME, else `server_name`.
std::optional<mcp::telemetry::otlp_exporter_options> otlp_tracing_options(const invocation& inv,
                                                                          std::string_view server_name);

/// An OTLP/HTTP exporter with a thread of its own: it outlives the server's
/// io_context (run_http_server and run_stdio_server own theirs), so that the
/// spans still queued when the server stops can be sent. Make it before the
/// server whose link it gives, so that it is destroyed after.
class otlp_tracing {
 public:
  /// How long the spans still queued at exit may take to send.
  static constexpr std::chrono::seconds flush_deadline{5};

  explicit otlp_tracing(mcp::telemetry::otlp_exporter_options options);
  /// Sends what is queued within flush_deadline, says on stderr (log
  /// category server, warn) how many spans were lost if any were, and stops.
  ~otlp_tracing();
  otlp_tracing(const otlp_tracing&) = delete;
  otlp_tracing& operator=(const otlp_tracing&) = delete;

  /// The server_tracing link: add it first, to time the whole chain.
  std::shared_ptr<mcp::server_middleware> server_link() const;

 private:
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  std::string url_;
  std::shared_ptr<mcp::telemetry::otlp_http_exporter> exporter_;
  std::shared_ptr<const mcp::telemetry::tracer> tracer_;
  std::thread thread_;
};

}  // namespace caduceus
