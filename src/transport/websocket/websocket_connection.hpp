#pragma once
// One WebSocket connection (RFC 6455) as a message_transport, either side,
// over plain TCP or TLS: one frame of the transport is one text message.
// Our own binding of MCP (docs/transports.md). Beast's websocket headers are
// included by websocket_connection.cpp only (the one translation unit that
// instantiates them, for both stream types); this header is light.
//
// A connection reads ahead in a coroutine of its own, for as long as it is
// open, into a small queue that read_frame() takes from. So Beast's
// keep-alive (a ping after a quiet spell, the peer dropped when nothing
// comes back in time) and its answers to the peer's pings and close go on
// while the engine above is busy, and a graceful stop (stop_reading) can end
// the input without cutting the connection: replies still go out, then the
// close frame. The queue is bounded (read_ahead_bytes, read_ahead_frames):
// a peer that floods a server that has no room stops being read, and if that
// lasts beyond the keep-alive deadline its pongs are not seen either and it
// is dropped. That is the bound doing its work, and what a client that waits
// for its answers never meets.
//
// Transport layer: nothing of JSON-RPC or MCP here (test/layers).

#include <mcp/transport/transport.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace boost::asio::ssl {
template <typename Stream>
class stream;
class context;
}  // namespace boost::asio::ssl

namespace mcp::detail {
class http_request;
}

namespace mcp::detail::websocket {

namespace asio = boost::asio;

class handed_stream;

/// Close codes (RFC 6455 section 7.4.1) the binding uses.
enum class close_code : std::uint16_t {
  normal = 1000,
  going_away = 1001,        ///< the server shuts down
  unsupported_data = 1003,  ///< a binary message: MCP messages are text
  invalid_payload = 1007,   ///< text that is not UTF-8 (Beast sends it)
  policy_violation = 1008,  ///< the access token expired
  too_big = 1009,           ///< a message over the size bound
  internal_error = 1011,
};

struct settings {
  /// The subprotocol both sides agree on.
  std::string subprotocol = "mcp";
  /// A longer message closes the connection with 1009.
  std::size_t max_message_size = default_max_frame_size;
  /// Keep-alive: a ping after this long without a frame from the peer; when
  /// nothing comes within as long again, the peer is taken for dead and the
  /// connection closed (read_frame throws timed_out).
  std::chrono::milliseconds ping_interval{30'000};
  /// The opening handshake (server side: writing the 101) and the closing
  /// handshake (our close frame and the peer's answer).
  std::chrono::milliseconds handshake_timeout{5'000};
  /// What is read ahead of read_frame() at most (see above).
  std::size_t read_ahead_bytes = default_max_frame_size;
  std::size_t read_ahead_frames = 256;
};

/// The close frame a peer sent.
struct peer_close {
  std::uint16_t code = 0;
  std::string reason;
};

/// A WebSocket connection. Runs on the executor of its socket; every member
/// is called there.
class connection : public message_transport {
 public:
  /// Graceful stop: read_frame() returns std::nullopt from now on (frames
  /// read ahead are dropped), while the connection stays open for what is
  /// still written, and keep-alive goes on. close() ends it.
  virtual void stop_reading() = 0;
  /// The code and reason of the close frame that close() sends (1000 by default).
  virtual void set_close_code(close_code code, std::string reason) = 0;
  /// Ends the connection at once, without a closing handshake: what is
  /// pending fails. close() still waits for the reader.
  virtual void close_now() noexcept = 0;
  /// The peer's close frame, once one came.
  virtual std::optional<peer_close> closed_by_peer() const = 0;
};

/// Server: answers the upgrade request `req` (its method, target and
/// headers; checked by Beast) with 101 Switching Protocols naming
/// `settings.subprotocol`, on `stream`, which must outlive the connection
/// and is not to be used meanwhile. Throws system_error when the handshake
/// fails (Beast has then answered 400 or 426).
asio::awaitable<std::unique_ptr<connection>> accept(asio::ip::tcp::socket& stream, const http_request& req,
                                                   settings s, transport_metadata metadata);
asio::awaitable<std::unique_ptr<connection>> accept(asio::ssl::stream<asio::ip::tcp::socket>& stream,
                                                   const http_request& req, settings s,
                                                   transport_metadata metadata);
/// The same on a connection an application's server handed over (handed_stream.hpp).
asio::awaitable<std::unique_ptr<connection>> accept(handed_stream& stream, const http_request& req, settings s,
                                                   transport_metadata metadata);

/// Client: what connect() needs besides the settings.
struct client_target {
  std::string url;          ///< ws:// or wss://, for messages
  bool tls = false;
  std::string host;         ///< to resolve, for SNI and the certificate check
  std::string port;
  std::string host_header;  ///< `host[:port]` as the URL spells it
  std::string target;       ///< `/path?query`
  /// Headers of the upgrade request, as they are.
  std::vector<std::pair<std::string, std::string>> headers;
  std::chrono::milliseconds connect_timeout{10'000};
};

/// The answer of a server that refused the upgrade.
struct refusal {
  unsigned status = 0;  ///< 0: no HTTP answer at all
  std::vector<std::string> www_authenticate;
  std::string dpop_nonce;  ///< its DPoP-Nonce header
  std::string body;
};

/// Client: resolves, connects, handshakes TLS (with `tls`, which the
/// connection keeps; null for ws://) and WebSocket within
/// `target.connect_timeout`. Returns the connection, or fills `refused` and
/// returns null when the server answered the upgrade with another status
/// than 101 or without the subprotocol. Throws system_error when the server
/// cannot be reached.
asio::awaitable<std::unique_ptr<connection>> connect(asio::any_io_executor ex, const client_target& target,
                                                    std::shared_ptr<asio::ssl::context> tls, settings s,
                                                    refusal& refused);

}  // namespace mcp::detail::websocket
