// MCP over WebSocket on the HTTP server's endpoint (docs/transports.md): our
// own binding, offered when http_server_options::websocket is set.
//
// The upgrade request goes through dispatch() like any other: Host and
// Origin (403), shutdown (503), OAuth (401/403 with their challenges) are
// answered before anything is upgraded. Here it must offer the `mcp`
// subprotocol (else 400) and find room under max_sessions (else 503).
//
// Then the connection is one MCP connection, served the way stdio is: an
// engine of its own in front of a stream of frames (the read loop of
// serve(), with the principal of the upgrade request bound to the session).
// The session lives as long as the connection; it has no Mcp-Session-Id,
// nothing in the session or event stores (there is no stream to resume: a
// client that loses the connection opens a new one), no idle expiry
// (keep-alive drops a dead peer instead). Either era: the first request
// decides, as on stdio.
//
// Ending it: the client's close frame or a failed connection cancels what
// runs (no one is left to take the answers). The server's shutdown stops the
// input, lets calls in flight finish within the session's drain_timeout
// (their answers still go out), then closes with 1001 (going away); past
// shutdown_timeout what runs is cancelled. A token that expires closes the
// connection with 1008 (policy violation): over Streamable HTTP each request
// is checked, here the upgrade was, so the connection lasts no longer than
// its token; the client connects again with a fresh one.

#include "endpoint_impl.hpp"

#include "../../detail/random.hpp"
#include "../../transport/websocket/websocket_connection.hpp"
#include "../engine.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/transport/websocket.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/string.hpp>

#include <algorithm>

namespace mcp {

namespace {

namespace ws = detail::websocket;

// The closing handshake of a WebSocket session: the server waits no longer
// for the client's answer to its close frame.
constexpr std::chrono::milliseconds longest_close{5000};

// Whether an element of the comma-separated `name` headers is `token`
// (subprotocol names compare exactly, RFC 6455 section 4.1; Upgrade values
// in any case).
bool lists(const header_list& headers, std::string_view name, std::string_view token, bool any_case) {
  for (const auto& [field, value] : headers) {
    if (field != name) continue;
    std::string_view rest = value;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      auto element = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      while (!element.empty() && (element.front() == ' ' || element.front() == '\t')) element.remove_prefix(1);
      while (!element.empty() && (element.back() == ' ' || element.back() == '\t')) element.remove_suffix(1);
      if (any_case ? boost::beast::iequals(element, token) : element == token) return true;
    }
  }
  return false;
}

// What ends a WebSocket session from outside (the server's shutdown, the
// token's expiry), on the connection's strand.
struct session_control {
  explicit session_control(ws::connection& t) : transport(t) {}
  ws::connection& transport;
  asio::cancellation_signal cut_drain;  // bound to the engine's finish()
  bool draining = false;  // the server stops: calls in flight may finish
  bool forced = false;    // nothing may finish any more

  void stop(bool force) {
    if (!draining && !forced) transport.set_close_code(ws::close_code::going_away, "the server is shutting down");
    draining = true;
    transport.stop_reading();
    if (force && !forced) {
      forced = true;
      cut_drain.emit(asio::cancellation_type::terminal);
    }
  }

  void expire() {
    if (draining || forced) return;
    forced = true;
    transport.set_close_code(ws::close_code::policy_violation, "the access token expired");
    transport.stop_reading();
  }
};

asio::awaitable<void> finish_engine(detail::server_engine& engine, bool drain) { co_await engine.finish(drain); }

}  // namespace

bool http_endpoint::impl::wants_websocket(const http_request& req) {
  const auto headers = req.headers();
  return lists(headers, "upgrade", "websocket", true);
}

asio::awaitable<bool> http_endpoint::impl::handle_websocket(response_channel& io, served_request& req) {
  if (!lists(req.headers(), "sec-websocket-protocol", websocket_subprotocol, false))
    co_return co_await reply_error(io, req, http::status::bad_request, errc::invalid_request,
                                   "Bad Request: MCP over WebSocket needs the mcp subprotocol "
                                   "(Sec-WebSocket-Protocol: mcp)");
  if (session_count() >= options.max_sessions)
    co_return co_await reply_error(io, req, http::status::service_unavailable, errc::internal_error,
                                   "Service Unavailable: too many sessions");
  transport_metadata metadata;
  metadata.kind = "websocket";
  metadata.peer = io.peer();
  metadata.session_id = detail::random_hex(16);  // names the session in logs
  // A protected server keeps the token from handlers: nothing passes it on.
  metadata.headers = options.auth ? req.headers_without("authorization") : req.headers();
  ws::settings settings;
  settings.subprotocol = std::string(websocket_subprotocol);
  settings.max_message_size = options.max_body_size;
  settings.read_ahead_bytes = options.max_body_size;
  settings.ping_interval = options.websocket_ping_interval;
  settings.handshake_timeout = std::min(options.write_timeout, longest_close);
  const auto session_id = metadata.session_id;
  ++websocket_sessions;
  std::unique_ptr<ws::connection> transport;
  try {
    transport = co_await io.accept_websocket(req, std::move(settings), std::move(metadata));
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "WebSocket upgrade failed", {{"error", e.what()}});
  }
  if (!transport) {
    --websocket_sessions;
    note_ended();
    co_return false;
  }
  sdk_log(log_category::transport, log_level::debug, "WebSocket session opened",
          {{"session_id", session_id}, {"peer", io.peer()}});
  io.counted().status = 101;  // (Switching Protocols: its connection carries WebSocket now)

  // Shutdown reaches the session through its connection's entry.
  const auto control = std::make_shared<session_control>(*transport);
  {
    std::lock_guard lock(tables);
    websocket_stops[&io] = [control](bool forced) { control->stop(forced); };
  }
  if (stopping) control->stop(false);  // (begin_shutdown came before the entry had the hook)

  const auto strand = co_await asio::this_coro::executor;
  std::optional<asio::steady_timer> expiry;
  if (req.principal && req.principal->expiry) {
    const auto left = *req.principal->expiry - std::chrono::system_clock::now();
    expiry.emplace(strand, std::chrono::steady_clock::now() +
                               std::chrono::duration_cast<std::chrono::steady_clock::duration>(left));
    expiry->async_wait([weak = std::weak_ptr<session_control>(control)](boost::system::error_code ec) {
      if (ec) return;
      if (auto c = weak.lock()) c->expire();
    });
  }

  bool input_failed = false;  // the client closed or the connection failed: no one takes late answers
  {
    detail::server_engine engine(behaviour, *transport, options.session);
    engine.start();
    if (req.principal) engine.set_principal(req.principal);
    try {
      co_await engine.serve_frames();
    } catch (const std::exception& e) {
      input_failed = true;
      sdk_log(log_category::transport, log_level::debug, "WebSocket read ended", {{"session_id", session_id}, {"error", e.what()}});
    }
    // The input ended: the server stops (drain, unless forced meanwhile),
    // the token expired (forced), or the client closed (input_failed, or a
    // close frame: its read_frame() ends as ours does, but nothing set
    // `draining`).
    const bool drain = control->draining && !control->forced && !input_failed;
    if (expiry) expiry->cancel();
    // finish() closes the transport: the close frame names why.
    co_await asio::co_spawn(strand, finish_engine(engine, drain),
                            asio::bind_cancellation_slot(control->cut_drain.slot(), asio::use_awaitable));
  }
  co_await transport->close();  // (done by finish(); this waits for the reader in any case)
  {
    std::lock_guard lock(tables);
    websocket_stops.erase(&io);
  }
  if (const auto peer = transport->closed_by_peer())
    sdk_log(log_category::transport, log_level::debug, "WebSocket session closed by the client",
            {{"session_id", session_id}, {"code", peer->code}, {"reason", peer->reason}});
  transport.reset();
  --websocket_sessions;
  note_ended();
  co_return false;
}

}  // namespace mcp
