#pragma once
// The HTTP server's telemetry events (docs/observability.md, "Telemetry
// events"): connections accepted, closed and refused, one http.request per
// request answered, and the SSE streams its responses carry. Nothing is
// gathered unless someone listens (telemetry::listening).

#include "../../transport/http/server/response_channel.hpp"
#include "served_request.hpp"

#include <mcp/telemetry/events.hpp>

#include <boost/json/value.hpp>

#include <chrono>
#include <cstdint>
#include <string_view>

namespace mcp::detail {

using telemetry_clock = std::chrono::steady_clock;

/// Notes what http.request reports of a POST's body: its method and the
/// trace id of its `_meta.traceparent` (of its first message, for a batch).
void note_message(served_request& req, const boost::json::value& body);

/// connection.refused (nothing when `reason` is empty).
void connection_refused(std::string_view peer, std::string_view reason);

/// One connection's connection.accepted (when made) and connection.closed.
class connection_telemetry {
 public:
  /// Emits connection.accepted. `transport`: "http" or "https".
  connection_telemetry(response_channel& io, std::string_view transport);
  /// The connection carries WebSocket from now on (its close says so).
  void upgraded() noexcept { transport_ = "websocket"; }
  /// A request has been answered on it.
  void answered() noexcept { ++requests_; }
  /// Emits connection.closed.
  void closed(response_channel& io) const;

 private:
  bool on_;
  std::string_view transport_;
  telemetry_clock::time_point opened_;
  std::uint64_t requests_ = 0;
};

/// One request's http.request event, emitted once its response has ended.
class http_request_telemetry {
 public:
  /// Before the request is read: its bytes are counted from here.
  explicit http_request_telemetry(response_channel& io);
  /// The request has been read: its duration runs from here.
  void arrived() noexcept;
  /// Emits http.request (also for a response cut short: with the status it began with).
  void answered(response_channel& io, const served_request& req) const;

 private:
  bool on_;
  telemetry_clock::time_point arrived_;
  std::uint64_t bytes_in_ = 0;
  std::uint64_t bytes_out_ = 0;
};

/// What an SSE response carries, for stream.* events: a POST's answers,
/// the GET stream, a legacy session's stream, or a stream resumed (a GET
/// with Last-Event-ID).
enum class stream_kind : unsigned char { post, get, legacy, resumed };

/// One SSE response's stream.opened or stream.resumed, and its stream.closed.
class stream_telemetry {
 public:
  /// Emits stream.opened, or stream.resumed (`last_event_id`: where it resumes).
  stream_telemetry(std::string_view session_id, std::string_view stream_id, stream_kind kind,
                   std::string_view last_event_id);
  /// Emits stream.closed: the response ended, after `events` events (the
  /// stream itself may go on, and be resumed).
  void closed(std::uint64_t events) const;

 private:
  bool on_;
  std::string_view session_id_;  // (the session and stream outlive the response)
  std::string_view stream_id_;
  std::string_view kind_;
  telemetry_clock::time_point opened_;
};

}  // namespace mcp::detail
