#pragma once
// The telemetry events of a client (docs/observability.md): client.request.*
// and client.reconnect. Each checks that someone listens before it gathers
// anything.

#include <mcp/telemetry/events.hpp>

#include <chrono>
#include <exception>
#include <string>
#include <string_view>

namespace mcp::detail {

/// client.request.start when made, client.request.stop when told how the call ended.
class client_call_report {
 public:
  static bool wanted() noexcept;
  client_call_report(std::string_view method, std::string server, std::string transport,
                     std::string_view trace_id);
  void succeeded() const;
  /// The call threw `failure`: the outcome says how (error, timeout, cancelled, disconnected).
  void failed(const std::exception_ptr& failure) const;

 private:
  void stop(std::string_view outcome, std::int64_t error_code) const;
  std::string method_;
  std::string server_;
  std::string transport_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

void report_retry(std::string_view method, std::string_view reason);
void report_reconnect(std::size_t attempt, std::chrono::milliseconds delay, std::string_view outcome,
                      std::string_view message);

}  // namespace mcp::detail
