#pragma once
// The telemetry events of what mcp::server serves by name (docs/
// observability.md): server.tool.call, server.resource.read and
// server.prompt.get, with the duration and outcome of each. Callers check
// `telemetry::listening(e)` first; these run only when someone listens.

#include <mcp/server/context.hpp>
#include <mcp/telemetry/events.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <exception>
#include <optional>

namespace mcp::detail {

class component_report {
 public:
  component_report(telemetry::event e, const request& req, const session& s) noexcept;
  /// The request was answered with `result` (a tool's `isError` counts as a tool error).
  void succeeded(const json::object& result) const;
  /// The request failed with an exception.
  void failed() const;

 private:
  void emit(std::string_view outcome) const;
  telemetry::event event_;
  const request& req_;
  const session& session_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

/// Awaits `work`, the serving of `req`, and reports it as event `e`.
asio::awaitable<json::object> reported(telemetry::event e, const request& req, request_context& ctx,
                                       asio::awaitable<json::object> work);

/// Serves `req` at once with `work` (which may decline: nullopt) and reports it as event `e`.
template <class Work>
std::optional<json::object> reported_at_once(telemetry::event e, const request& req, request_context& ctx,
                                             Work&& work) {
  const component_report report(e, req, ctx.session());
  std::optional<json::object> result;
  try {
    result = work();
  } catch (...) {
    report.failed();
    throw;
  }
  if (result) report.succeeded(*result);
  return result;
}

}  // namespace mcp::detail
