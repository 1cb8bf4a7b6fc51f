#pragma once
// An exporter that sends spans to an OpenTelemetry collector (or any OTLP
// receiver: Jaeger, Tempo...) over OTLP/HTTP with the JSON encoding:
// POST <endpoint>/v1/traces, Content-Type application/json.
//
//   auto exporter = std::make_shared<mcp::telemetry::otlp_http_exporter>(
//       io.get_executor(), mcp::telemetry::otlp_exporter_options::from_environment());
//   auto tracer = std::make_shared<mcp::telemetry::tracer>(exporter);
//   ...
//   co_await exporter->shutdown(std::chrono::seconds(5));  // sends what is left
//
// Spans are queued as they end (a bounded queue: past it they are dropped
// and counted) and sent in batches from the executor, every flush interval
// or as soon as a batch is full; a request never waits for the collector.
// A batch the collector does not take is dropped (counted), not retried.

#include <mcp/export.hpp>
#include <mcp/telemetry/tracing.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace mcp::telemetry {

/// Where and how otlp_http_exporter sends spans.
struct MCP_API otlp_exporter_options {
  /// The defaults below; from_environment() reads OpenTelemetry's variables.
  otlp_exporter_options() {}  // not an aggregate (docs/compilers.md)

  /// The collector's base URL: spans go to `<endpoint>/v1/traces`.
  std::string endpoint = "http://127.0.0.1:4318";
  /// The whole URL to post spans to, when set: used as it is.
  std::string traces_url;
  /// The resource attribute `service.name`.
  std::string service_name = "caduceus";
  std::size_t max_queue = 2048;  ///< spans waiting; more are dropped
  std::size_t max_batch = 512;   ///< spans per POST
  std::chrono::milliseconds flush_interval{5000};  ///< how often the queue is sent (a full batch: at once)
  std::chrono::milliseconds timeout{10000};  ///< each POST's deadline, and its connection's
  /// PEM file of CAs to trust for an https collector; empty: the system's.
  std::string ca_file;

  /// The URL spans are posted to.
  std::string url() const;

  /// The defaults, then OpenTelemetry's variables where set:
  /// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the whole URL),
  /// OTEL_EXPORTER_OTLP_ENDPOINT (the base) and OTEL_SERVICE_NAME.
  static otlp_exporter_options from_environment();
};

/// OTLP/HTTP JSON body (an ExportTraceServiceRequest) for these spans.
MCP_API std::string otlp_json(std::span<const span_record> spans, std::string_view service_name);

/// Sends spans to an OTLP/HTTP receiver in batches, from a coroutine on a
/// strand of the executor; see the top of this file.
class MCP_API otlp_http_exporter final : public span_exporter {
 public:
  /// Starts the sending loop on `executor` (which must run for spans to go).
  otlp_http_exporter(boost::asio::any_io_executor executor, otlp_exporter_options options);
  /// Stops sending (what is still queued is lost: shutdown() first).
  ~otlp_http_exporter() override;
  otlp_http_exporter(const otlp_http_exporter&) = delete;
  otlp_http_exporter& operator=(const otlp_http_exporter&) = delete;

  /// Queues a span (thread safe, never waits); dropped when the queue is
  /// full or the exporter shut down.
  void export_span(span_record span) override;

  /// Sends what is queued and stops, within `deadline` (a POST still under
  /// way then is abandoned). Spans that end later are dropped.
  boost::asio::awaitable<void> shutdown(std::chrono::milliseconds deadline);

  /// Spans so far, by fate.
  struct counts {
    std::uint64_t exported = 0;  ///< taken by the collector
    std::uint64_t dropped = 0;   ///< queue full, after shutdown, or their POST failed
  };
  /// The counts now (thread safe).
  counts stats() const noexcept;

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace mcp::telemetry
