#include "server_connection.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include <mcp/auth/principal.hpp>

#include "modern_era.hpp"
#include "read_params.hpp"

#include <algorithm>

namespace mcp::detail {

server_connection::frame_cursor server_connection::receive(inbound_frame&& frame) {
  frame_cursor cursor;
  if (frame.oversized) {
    cursor.refusal = make_error({}, errc::invalid_request, "Invalid Request: message exceeds the size limit");
    report(telemetry::event::parse_error, {}, std::get<error_response>(*cursor.refusal).error);
    return cursor;
  }
  auto parsed = frame.parsed ? classify_frame(std::move(*frame.parsed)) : parse_frame(frame.text);
  cursor.items = std::move(parsed.items);
  if (!parsed.batch) return cursor;
  if (era_ == protocol_era::modern) {
    cursor.refusal = make_error({}, errc::invalid_request,
                                "Invalid Request: batches are not supported in protocol version 2026-07-28");
  } else if (!operating()) {
    cursor.refusal =
        make_error({}, errc::invalid_request, "Invalid Request: initialize must not be part of a batch");
  } else if (!dialect_of(version_).batches) {
    cursor.refusal = make_error({}, errc::invalid_request,
                                "Invalid Request: batches are not supported in protocol version " +
                                    std::string(to_string(version_)));
  } else {
    cursor.batch = requests_.open_batch();
  }
  if (cursor.refusal) report(telemetry::event::validation_error, {}, std::get<error_response>(*cursor.refusal).error);
  return cursor;
}

std::optional<server_connection::action> server_connection::next(frame_cursor& frame) {
  if (frame.done) return std::nullopt;
  if (frame.refusal) {
    frame.done = true;
    return *requests_.reply(std::move(*frame.refusal), 0);
  }
  while (frame.position < frame.items.size()) {
    if (auto action = on_item(frame.items[frame.position++], frame.batch)) return action;
  }
  frame.done = true;
  if (frame.batch != 0)
    if (auto reply = requests_.close_batch(frame.batch)) return std::move(*reply);
  return std::nullopt;
}

std::optional<server_connection::action> server_connection::on_item(frame_item& item, batch_id batch) {
  if (auto* bad = std::get_if<invalid_message>(&item)) {
    report(telemetry::event::parse_error, {}, bad->reply.error);
    return requests_.reply(std::move(bad->reply), batch);
  }
  auto& msg = std::get<message>(item);
  if (auto* req = std::get_if<request>(&msg)) return on_request(*req, batch);
  if (auto* n = std::get_if<notification>(&msg)) return on_notification(*n);
  return deliver_response{msg};
}

protocol_era server_connection::era_of(const request& req) {
  if (!era_) {
    // A session resumed without a handshake is legacy already. Otherwise a
    // request with an envelope, or the modern probe, opens the modern era.
    // A server without a modern version stays legacy: a client's probe is
    // then refused as any request before initialize, and the client goes on
    // with initialize on the same stream.
    const bool serves_modern =
        std::ranges::any_of(supported_, [](auto v) { return dialect_of(v).era == protocol_era::modern; });
    const bool modern = serves_modern && !operating() &&
                        (carries_envelope(req.params) || req.method == methods::server_discover);
    era_ = modern ? protocol_era::modern : protocol_era::legacy;
  }
  return *era_;
}

std::optional<server_connection::action> server_connection::on_request(request& req, batch_id batch) {
  // A batch belongs to the legacy era: its requests do not choose one.
  if (batch == 0 && era_of(req) == protocol_era::modern) return on_modern_request(req);
  if (auto refusal = lifecycle_.admit(req.method)) {
    report(telemetry::event::validation_error, req.method, *refusal);
    return requests_.reply(error_response{req.id, std::move(*refusal)}, batch);
  }
  if (requests_.in_use(req.id)) {
    auto in_use = id_in_use(req.id);
    report(telemetry::event::validation_error, req.method, in_use);
    return requests_.reply(error_response{req.id, std::move(in_use)}, batch);
  }
  if (req.method == methods::ping) return requests_.reply(response{req.id, json::object{}}, batch);
  if (req.method == methods::initialize) return on_initialize(req, batch);
  return serve_request{req, batch};
}

std::optional<server_connection::action> server_connection::on_modern_request(request& req) {
  try {
    auto envelope = read_envelope(req.params);
    const auto version = envelope_version(envelope, supported_);
    if (removed_in_modern_era(req.method))
      throw protocol_error(errc::method_not_found, "Method not found: " + req.method +
                                                       " is not part of protocol version " +
                                                       std::string(to_string(version)));
    if (requests_.in_use(req.id)) throw protocol_error(id_in_use(req.id));
    return serve_modern_request{req, std::move(envelope), version};
  } catch (const protocol_error& e) {
    report(telemetry::event::validation_error, req.method, e.error());
    return refuse_modern(req.id, e.error());
  }
}

outgoing_frame server_connection::refuse_modern(const request_id& id, rpc_error error) {
  const auto refused = error.code == errc::method_not_found ? frame_context::refusal::unknown_method
                                                            : frame_context::refusal::invalid_request;
  return *requests_.reply(error_response{id, std::move(error)}, 0, refused);
}

std::optional<server_connection::action> server_connection::on_initialize(const request& req, batch_id batch) {
  try {
    if (batch != 0)
      throw protocol_error(errc::invalid_request, "Invalid Request: initialize must not be part of a batch");
    auto hello = parse_initialize_request(req.params);
    if (std::ranges::none_of(supported_, [](auto v) { return dialect_of(v).era == protocol_era::legacy; })) {
      unsupported_version_data refused{{}, hello.protocol_version};
      for (const auto v : supported_) refused.supported.emplace_back(to_string(v));
      throw protocol_error(errc::unsupported_protocol_version,
                           "Unsupported protocol version: this server serves only the 2026-07-28 era, "
                           "without initialize",
                           to_json_value(std::move(refused)));
    }
    const auto version = negotiate_version(hello.protocol_version, supported_);
    return open_session{req, std::move(hello), version};
  } catch (const protocol_error& e) {
    report(telemetry::event::validation_error, req.method, e.error());
    return requests_.reply(error_response{req.id, e.error()}, batch);
  } catch (const std::exception& e) {
    return requests_.reply(make_error(req.id, errc::internal_error, std::string("Internal error: ") + e.what()),
                           batch);
  }
}

outgoing_frame server_connection::session_opened(protocol_version version, message reply) {
  if (std::holds_alternative<response>(reply)) {
    version_ = version;
    lifecycle_.on_initialize_answered();
  }
  return *requests_.reply(std::move(reply), 0);
}

std::optional<server_connection::action> server_connection::on_notification(notification& n) {
  if (n.method == methods::notifications_cancelled) {
    if (const auto id = cancelled_request(n.params))
      if (auto* runner = requests_.cancel(*id)) return cancel_request{runner};
    return std::nullopt;
  }
  if (n.method == methods::notifications_progress) return route_progress{n.params};
  if (n.method == methods::notifications_initialized) {
    lifecycle_.on_initialized_notification();
    return std::nullopt;
  }
  if (!operating()) {
    sdk_log(log_category::protocol, log_level::debug, "ignoring a notification before initialize",
            {{"method", n.method}});
    return std::nullopt;
  }
  return deliver_notification{n};
}

void server_connection::report(telemetry::event e, std::string_view method, const rpc_error& error) const {
  if (!telemetry::listening(e)) return;
  static const std::string unnamed;
  std::vector<telemetry::attribute> metadata{{"transport", transport_ ? *transport_ : unnamed},
                                             {"session_id", session_id_ ? *session_id_ : unnamed},
                                             {"error_code", std::int64_t{error.code}},
                                             {"message", error.message}};
  if (!method.empty()) metadata.emplace_back("method", method);
  telemetry::emit(e, {}, metadata);
}

rpc_error server_connection::id_in_use(const request_id& id) {
  return {errc::invalid_request,
          "Invalid Request: request id " + to_string(id) + " is already in use by a running request", nullptr};
}

frame_context::refusal server_connection::refusal_of(const message& reply, bool modern) {
  const auto* failed = std::get_if<error_response>(&reply);
  if (!failed) return frame_context::refusal::none;
  if (failed->error.code == auth::insufficient_scope_code) return frame_context::refusal::insufficient_scope;
  if (!modern) return frame_context::refusal::none;
  switch (failed->error.code) {
    case errc::method_not_found:
      return frame_context::refusal::unknown_method;
    case errc::header_mismatch:
    case errc::missing_client_capability:
    case errc::unsupported_protocol_version:
      return frame_context::refusal::invalid_request;
    default:
      return frame_context::refusal::none;
  }
}

}  // namespace mcp::detail
