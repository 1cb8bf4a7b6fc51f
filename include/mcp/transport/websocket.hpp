#pragma once
// The client side of MCP over WebSocket: our own extension (the MCP spec
// defines stdio and Streamable HTTP only), described in docs/transports.md.
// One JSON-RPC message per text message, the `mcp` subprotocol, pings to keep
// the connection alive; served by mcp::http_server with
// `http_server_options::websocket` on its endpoint.
//
//   auto transport = co_await mcp::connect_websocket(ex, "ws://127.0.0.1:8080/mcp");
//   mcp::client c(ex);
//   co_await c.connect(std::move(transport));
//
// The connection is one MCP connection, like stdio: in the 2025 era
// `initialize` opens its session, in the 2026-07-28 era every request stands
// alone; the client picks the era as over any transport. Nothing falls back
// to or from WebSocket: a ws:// or wss:// URL is asked for explicitly, and a
// server that refuses the upgrade is an error, not a reason to try HTTP.

#include <mcp/export.hpp>
#include <mcp/error.hpp>
#include <mcp/transport/http_client.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/system/errc.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// The WebSocket subprotocol of MCP messages (Sec-WebSocket-Protocol).
inline constexpr std::string_view websocket_subprotocol = "mcp";

/// How connect_websocket connects and keeps the connection alive.
struct MCP_API websocket_client_options {
  /// Extra headers of the upgrade request (Authorization, ...). Host,
  /// Upgrade, Connection, Sec-WebSocket-* are the transport's own.
  std::map<std::string, std::string> headers = {};
  /// Sets the Authorization header (and DPoP proof) of the upgrade request
  /// over `headers`, and answers a 401 or 403 refusal of it (then the
  /// upgrade is tried once more), e.g. by signing in with OAuth. It is
  /// asked for the URL of the upgrade request, the http(s) form of the
  /// ws(s) one, which is how OAuth knows the resource.
  std::shared_ptr<http_authorizer> authorizer = nullptr;
  /// Name resolution, TCP connect, TLS handshake and the WebSocket opening
  /// handshake, together.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Keep-alive: a ping after this long without anything from the server;
  /// when nothing (no pong) comes within as long again, the connection is
  /// taken for dead and closed (read_frame throws).
  std::chrono::milliseconds ping_interval{30'000};
  /// close(): how long the server has to answer our close frame.
  std::chrono::milliseconds close_timeout{2'000};
  /// A longer message from the server closes the connection (code 1009).
  std::size_t max_message_size = default_max_frame_size;
  /// TLS (wss URLs): the CA certificates to trust (PEM file); empty: the
  /// system's default paths. The server's certificate and host name are
  /// verified unless `verify_peer` is false.
  std::string ca_file = {};
  bool verify_peer = true;  ///< wss: verify the certificate and host name
};

/// The server refused the WebSocket upgrade: it answered with another status
/// than 101 (401 without a token the server takes, 403 for a refused Origin,
/// 400 without the `mcp` subprotocol...), or without the `mcp` subprotocol.
/// Code: boost::system::errc::permission_denied for 401 and 403,
/// connection_refused otherwise.
class MCP_API websocket_upgrade_error : public error {
 public:
  /// `what` is what() as it is; the code follows `status` (see above).
  websocket_upgrade_error(const std::string& what, unsigned status, std::vector<std::string> www_authenticate)
      : error(make_error_code(status == 401 || status == 403 ? boost::system::errc::permission_denied
                                                             : boost::system::errc::connection_refused),
              what, whole_message{}),
        status_(status),
        www_authenticate_(std::move(www_authenticate)) {}
  /// The HTTP status of the answer (101 when the subprotocol was missing).
  unsigned status() const noexcept { return status_; }
  /// Its WWW-Authenticate headers.
  const std::vector<std::string>& www_authenticate() const noexcept { return www_authenticate_; }

 private:
  unsigned status_;
  std::vector<std::string> www_authenticate_;
};

/// Opens a WebSocket connection to the MCP server at `url` (ws or wss) and
/// returns it as a transport for mcp::client, connected: a server that is
/// down or refuses the upgrade fails here. Throws mcp::invalid_argument for
/// a URL that is not ws(s), has no host or carries credentials, and for a
/// header with a line break in it; websocket_upgrade_error when the server
/// refuses the upgrade; mcp::error when it cannot be
/// reached (timed_out after `connect_timeout`) or `ca_file` cannot be loaded.
///
/// The transport runs on `ex` (use a strand when the io_context has several
/// threads). read_frame() returns std::nullopt once closed, or when the
/// server closed the connection normally (1000, 1001, or no code); it throws
/// (a system_error whose message names the cause) when the connection failed:
/// no answer to pings, a close frame with another code, a binary message
/// (then closed with code 1003), a message over `max_message_size`.
///
/// Cancellation: a terminal cancellation of the awaiting coroutine is seen
/// between the steps of the connect (name resolution, TCP connect, TLS
/// handshake, WebSocket handshake; the authorizer's answer to a challenge,
/// and the second attempt): the next one then fails with operation_aborted,
/// closing what was opened. A step under way may finish first (Asio cannot
/// cancel name resolution; the network steps are bounded by
/// `connect_timeout` together), so a connect cancelled during its last step
/// may still return the connection.
MCP_API asio::awaitable<std::unique_ptr<message_transport>> connect_websocket(asio::any_io_executor ex,
                                                                      std::string url);
/// The same, with options. (An overload, not a defaulted argument: see
/// docs/compilers.md.)
MCP_API asio::awaitable<std::unique_ptr<message_transport>> connect_websocket(asio::any_io_executor ex,
                                                                      std::string url,
                                                                      websocket_client_options options);

}  // namespace mcp
