// The telemetry events of a client (client_telemetry.hpp).

#include "client_telemetry.hpp"

#include <mcp/protocol/errors.hpp>

#include <boost/asio/error.hpp>
#include <boost/system/system_error.hpp>

namespace mcp::detail {

using telemetry::event;

bool client_call_report::wanted() noexcept {
  return telemetry::listening(event::client_request_start) || telemetry::listening(event::client_request_stop);
}

client_call_report::client_call_report(std::string_view method, std::string server, std::string transport,
                                       std::string_view trace_id)
    : method_(method), server_(std::move(server)), transport_(std::move(transport)) {
  telemetry::emit(event::client_request_start, {},
                  {{"method", method_}, {"server", server_}, {"transport", transport_}, {"trace_id", trace_id}});
}

void client_call_report::succeeded() const { stop("ok", 0); }

void client_call_report::failed(const std::exception_ptr& failure) const {
  try {
    std::rethrow_exception(failure);
  } catch (const protocol_error& e) {
    stop("error", e.error().code);
  } catch (const boost::system::system_error& e) {
    const auto code = e.code();
    if (code == boost::asio::error::timed_out) return stop("timeout", 0);
    if (code == boost::asio::error::operation_aborted) return stop("cancelled", 0);
    stop("disconnected", 0);
  } catch (...) {
    stop("error", 0);
  }
}

void client_call_report::stop(std::string_view outcome, std::int64_t error_code) const {
  if (!telemetry::listening(event::client_request_stop)) return;
  const auto duration = telemetry::seconds_between(started_, std::chrono::steady_clock::now());
  if (error_code != 0) {
    telemetry::emit(event::client_request_stop, {{"duration", duration}},
                    {{"method", method_},
                     {"server", server_},
                     {"transport", transport_},
                     {"outcome", outcome},
                     {"error_code", error_code}});
  } else {
    telemetry::emit(event::client_request_stop, {{"duration", duration}},
                    {{"method", method_}, {"server", server_}, {"transport", transport_}, {"outcome", outcome}});
  }
}

void report_retry(std::string_view method, std::string_view reason) {
  telemetry::emit(event::client_request_retry, {}, {{"method", method}, {"reason", reason}});
}

void report_reconnect(std::size_t attempt, std::chrono::milliseconds delay, std::string_view outcome,
                      std::string_view message) {
  const double delay_seconds = std::chrono::duration<double>(delay).count();
  telemetry::emit(event::client_reconnect, {{"attempt", static_cast<double>(attempt)}, {"delay", delay_seconds}},
                  {{"outcome", outcome}, {"message", message}});
}

}  // namespace mcp::detail
