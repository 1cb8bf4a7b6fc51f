#pragma once
// The telemetry events of what an engine serves (docs/observability.md):
// server.request.start, .stop and .exception, server.notification, and the
// session.* events of the sessions it opens. Built only when someone
// listens: serving costs a branch when nobody does.

#include <mcp/server/context.hpp>
#include <mcp/telemetry/events.hpp>

#include <chrono>
#include <exception>
#include <string>

namespace mcp::detail {

class request_telemetry {
 public:
  static bool wanted() noexcept;

  /// Starts the clock. `modern`: a 2026-07-28 request, which has no session.
  request_telemetry(const request& req, const session& s, bool modern);
  /// Emits server.request.start. (A request served at once reports its
  /// start with its stop: until it is answered, it may yet go on as a
  /// coroutine, which reports on its own.)
  void start() const;
  /// Emits server.request.stop for what the request was answered with.
  void stop(const message& reply, bool cancelled) const;

 private:
  const request& req_;
  const session& session_;
  std::string id_text_;
  std::string session_id_;
  std::string_view target_;
  std::string_view trace_id_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
};

/// server.request.exception: a handler threw something other than a protocol error.
void report_handler_exception(const request& req, const session& s, std::string_view what);

/// server.notification, once the notification's handler has run.
void report_notification(const notification& n, const session& s, std::chrono::steady_clock::time_point started);

/// session.created, when `initialize` has opened `s`.
void report_session_created(const session& s);
/// session.closed, .expired or .deleted (`reason`) for a session opened at `created`.
void report_session_end(telemetry::event reason, const session& s, std::chrono::steady_clock::time_point created);

/// The trace id (32 hex digits) of a request's `_meta.traceparent`, or "".
std::string_view trace_id_of(const json::object& params) noexcept;

}  // namespace mcp::detail
