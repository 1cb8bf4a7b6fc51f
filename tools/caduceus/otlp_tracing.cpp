#include "otlp_tracing.hpp"

#include "ascii.hpp"

#include <mcp/log.hpp>
#include <mcp/telemetry/mcp_tracing.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_future.hpp>

#include <cctype>
#include <cstdlib>
#include <string>

namespace caduceus {

namespace asio = boost::asio;

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// Whether OpenTelemetry's variables ask for OTLP traces: an endpoint is set,
// the SDK is not disabled, and OTEL_TRACES_EXPORTER (default otlp) names otlp.
bool environment_asks_for_traces() {
  if (environment("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").empty() && environment("OTEL_EXPORTER_OTLP_ENDPOINT").empty())
    return false;
  if (lower(environment("OTEL_SDK_DISABLED")) == "true") return false;
  const auto exporters = lower(environment("OTEL_TRACES_EXPORTER"));
  return exporters.empty() || exporters.find("otlp") != std::string::npos;
}

}  // namespace

std::optional<mcp::telemetry::otlp_exporter_options> otlp_tracing_options(const invocation& inv,
                                                                          std::string_view server_name) {
  if (inv.otlp_endpoint.empty() && !environment_asks_for_traces()) return std::nullopt;
  auto options = mcp::telemetry::otlp_exporter_options::from_environment();
  if (!inv.otlp_endpoint.empty()) {  // the flag wins over both variables
    options.endpoint = inv.otlp_endpoint;
    options.traces_url.clear();
  }
  if (environment("OTEL_SERVICE_NAME").empty()) options.service_name = std::string(server_name);
  return options;
}

otlp_tracing::otlp_tracing(mcp::telemetry::otlp_exporter_options options)
    : io_(1),
      work_(io_.get_executor()),
      url_(options.url()),
      exporter_(std::make_shared<mcp::telemetry::otlp_http_exporter>(io_.get_executor(), std::move(options))),
      tracer_(std::make_shared<mcp::telemetry::tracer>(exporter_)),
      thread_([this] { io_.run(); }) {}

otlp_tracing::~otlp_tracing() {
  // (The exporter's own watchdog ends the shutdown at the deadline; the
  // second bound only guards against a bug there.)
  auto flushed = asio::co_spawn(io_, exporter_->shutdown(flush_deadline), asio::use_future);
  flushed.wait_for(flush_deadline + std::chrono::seconds(1));
  const auto counts = exporter_->stats();
  if (counts.dropped > 0)
    mcp::sdk_log(mcp::log_category::server, mcp::log_level::warn, "spans were not exported",
                 {{"url", url_}, {"dropped", counts.dropped}, {"exported", counts.exported}});
  work_.reset();
  io_.stop();
  thread_.join();
}

std::shared_ptr<mcp::server_middleware> otlp_tracing::server_link() const {
  return mcp::telemetry::server_tracing(tracer_);
}

}  // namespace caduceus
