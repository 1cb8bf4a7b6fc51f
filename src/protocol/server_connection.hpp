#pragma once
// The server side of one connection, sans-io: it takes the frames a client
// sent and says what to do with each message in them. It owns the lifecycle
// (`initialize`, `notifications/initialized`, what is admitted before), the
// era of the connection, batches, the ids of the requests being served and
// their cancellation. The driver (server/engine.cpp) runs the handlers, the
// timers and the writes on Asio, and hands every reply back here, which
// decides where it goes.
//
// A frame is read through a cursor of its own, because a driver may take the
// next frame while a notification handler of the previous one still runs
// (an HTTP session takes POSTs concurrently).

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/versions.hpp>

#include "inbound_table.hpp"

#include <mcp/telemetry/events.hpp>

#include <optional>
#include <span>
#include <variant>

namespace mcp::detail {

class server_connection {
 public:
  using batch_id = inbound_table::batch_id;

  // Actions that carry a message refer to it in the frame: the driver takes
  // it (moves from it) before it asks for the next action.

  /// A request for the behaviour to serve in the connection's session.
  struct serve_request {
    request& req;
    batch_id batch;
  };
  /// `initialize`, read and negotiated: the driver opens the session and
  /// answers through session_opened().
  struct open_session {
    const request& req;
    initialize_request hello;
    protocol_version version;
  };
  /// A 2026-07-28 request, admitted: its envelope read, its version
  /// supported, its method one of the era's, its id not in use. It is served
  /// from its envelope.
  struct serve_modern_request {
    request& req;
    request_envelope envelope;
    protocol_version version;
  };
  /// A notification for the behaviour; the driver awaits its handler before
  /// it asks for the next action of the frame.
  struct deliver_notification {
    notification& note;
  };
  /// A request the client cancelled: stop its runner.
  struct cancel_request {
    cancellable* runner;
  };
  /// `notifications/progress` params, for the requests we sent.
  struct route_progress {
    const json::object& params;
  };
  /// A response to a request we sent.
  struct deliver_response {
    message& reply;
  };
  using action = std::variant<outgoing_frame, serve_request, open_session, serve_modern_request,
                              deliver_notification, cancel_request, route_progress, deliver_response>;

  /// One frame's messages, handed out in order by next().
  class frame_cursor {
   private:
    friend class server_connection;
    std::optional<message> refusal;  // of the whole frame
    std::vector<frame_item> items;
    std::size_t position = 0;
    batch_id batch = 0;
    bool done = false;
  };

  /// `supported` outlives the connection (the behaviour's versions).
  explicit server_connection(std::span<const protocol_version> supported) : supported_(supported) {}

  /// A session resumed without a handshake (stateless serving).
  void assume_initialized(protocol_version version) noexcept {
    version_ = version;
    lifecycle_.assume_initialized();
  }
  /// Fixes the era before the first request (HTTP knows it from the POST);
  /// otherwise the first request decides it.
  void set_era(protocol_era era) noexcept { era_ = era; }
  /// Names the transport and session in the telemetry events of what the
  /// core refuses (protocol.parse_error, protocol.validation_error). Both
  /// strings outlive the connection.
  void describe(const std::string& transport, const std::string& session_id) noexcept {
    transport_ = &transport;
    session_id_ = &session_id;
  }

  /// Reads a frame: a refusal of the whole frame (too large, a batch where
  /// none is allowed), or its messages.
  frame_cursor receive(inbound_frame&& frame);
  /// What to do next for the frame; nothing once it is done.
  std::optional<action> next(frame_cursor& frame);

  /// The reply to `initialize` (open_session), produced by the driver: the
  /// session operates in `version` once it succeeded.
  outgoing_frame session_opened(protocol_version version, message reply);

  /// The answer to a 2026-07-28 request refused before any handler ran,
  /// with the refusal a transport reports besides it (HTTP: 404 for an
  /// unknown method, else 400).
  outgoing_frame refuse_modern(const request_id& id, rpc_error error);

  /// The requests being served (an inbound_table).
  inbound_table& requests() noexcept { return requests_; }
  const inbound_table& requests() const noexcept { return requests_; }

  /// The error for a request whose id a running request still uses.
  static rpc_error id_in_use(const request_id& id);
  /// How a transport should report a reply that refuses its request: for
  /// want of scopes (either era), or by the modern protocol's rules.
  static frame_context::refusal refusal_of(const message& reply, bool modern);

  bool operating() const noexcept { return lifecycle_.current() == legacy_lifecycle::phase::operating; }

 private:
  std::optional<action> on_item(frame_item& item, batch_id batch);
  std::optional<action> on_request(request& req, batch_id batch);
  std::optional<action> on_modern_request(request& req);
  std::optional<action> on_initialize(const request& req, batch_id batch);
  std::optional<action> on_notification(notification& n);
  protocol_era era_of(const request& req);
  // Emits the telemetry event of a refusal, when someone listens.
  void report(telemetry::event e, std::string_view method, const rpc_error& error) const;

  std::span<const protocol_version> supported_;
  legacy_lifecycle lifecycle_;
  protocol_version version_ = latest_legacy_version;  // of the legacy session, once it operates
  std::optional<protocol_era> era_;  // set by the first request
  inbound_table requests_;
  const std::string* transport_ = nullptr;
  const std::string* session_id_ = nullptr;
};

}  // namespace mcp::detail
