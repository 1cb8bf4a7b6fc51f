#pragma once
// The client side of MCP over HTTP (spec: basic/transports): Streamable HTTP
// (2025-03-26 on) and the HTTP+SSE transport of 2024-11-05, over plain TCP or
// TLS, as a message_transport for mcp::client.
//
//   auto transport = co_await mcp::connect_http(ex, "https://example.com/mcp");
//   mcp::client c(ex);
//   co_await c.connect(std::move(transport));
//
// Streamable HTTP: every frame is POSTed to the URL on a pooled keep-alive
// connection; answers come back as JSON or as an SSE stream, read in the
// background, and reach read_frame() in arrival order. The session id of the
// `initialize` answer and the negotiated `MCP-Protocol-Version` go on every
// later request. After `notifications/initialized` the transport listens on
// the optional GET stream; a stream that drops before it delivered its answer
// is resumed with `Last-Event-ID`. An HTTP error on a POST holding a request
// becomes a JSON-RPC error answer to that request (code -32000, `data` holds
// `httpStatus`; a 404 in a session says the session expired: initialize again),
// so the call fails clearly and the transport stays usable.
//
// HTTP+SSE (2024-11-05): a GET opens the one stream that carries every
// message; its first event names the endpoint the frames are POSTed to. The
// end of that stream is the end of the connection (no resumption).

#include <mcp/export.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// Which HTTP transport the client speaks.
enum class http_mode {
  /// Streamable HTTP; when the server answers the `initialize` POST with 400,
  /// 404 or 405, GET the same URL and go on with HTTP+SSE if its first event
  /// is `endpoint` (the spec's backwards-compatibility rule).
  automatic,
  streamable,  ///< Streamable HTTP only
  legacy_sse,  ///< HTTP+SSE (2024-11-05) only: the URL is the SSE endpoint
};

/// A request the server refused for its credentials (spec: basic/
/// authorization): 401, or 403 (insufficient scope).
struct MCP_API authorization_challenge {
  std::string url;                    ///< the request's URL
  unsigned status = 0;                ///< 401 or 403
  std::string sent_authorization;     ///< the Authorization header it carried (empty: none)
  std::vector<std::string> www_authenticate;  ///< every WWW-Authenticate header of the answer
  std::string dpop_nonce;  ///< its DPoP-Nonce header (RFC 9449 section 9), for the next proof
};

/// Header fields, as name and value.
using http_fields = std::vector<std::pair<std::string, std::string>>;

/// Gives an HTTP client transport the credentials of each request and answers
/// the server's challenges; `mcp::oauth_client` (mcp/client/oauth.hpp) is the
/// OAuth 2.1 one. One authorizer may serve many transports (a client pool):
/// they share its token. Called on the transports' executor.
class MCP_API http_authorizer {
 public:
  virtual ~http_authorizer() = default;
  /// The fields that authorize a `method` ("POST", "GET"...) request to
  /// `url` now: Authorization, and a DPoP proof (RFC 9449) when the token is
  /// bound to a key; empty: none.
  virtual http_fields credentials(std::string_view method, std::string_view url) = 0;
  /// True when the refused request should go again with new credentials();
  /// false lets the refusal through as the answer. Throws
  /// (a std::exception saying why) when authorization failed for good: the
  /// request fails with that message.
  virtual asio::awaitable<bool> on_challenge(authorization_challenge challenge) = 0;
};

/// How connect_http's transport talks to the server: which HTTP transport,
/// extra headers and credentials, timeouts, connections, SSE reconnection, TLS.
struct MCP_API http_client_options {
  http_mode mode = http_mode::automatic;  ///< which HTTP transport to speak
  /// Extra headers on every request (Authorization, ...). The headers the
  /// transport sets itself (Host, Accept, Content-Type, Content-Length,
  /// Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID) win over these.
  std::map<std::string, std::string> headers = {};
  /// Sets the Authorization header (and DPoP proof) of every request, over
  /// those in `headers`, and answers 401 and 403 challenges, e.g. by signing
  /// in with OAuth.
  std::shared_ptr<http_authorizer> authorizer = nullptr;

  /// Name resolution, TCP connect and TLS handshake of one connection.
  std::chrono::milliseconds connect_timeout{10'000};
  /// Writing a request, and the head of a response that should come at once
  /// (GET, DELETE, notifications, `initialize`); a whole short body; the
  /// legacy transport's `endpoint` event.
  std::chrono::milliseconds response_timeout{30'000};
  /// The head of the answer to a POST holding a request other than
  /// `initialize`: a JSON answer comes only when the call is done. The
  /// client's own request timeout normally ends the wait first.
  std::chrono::milliseconds request_timeout{600'000};
  /// An SSE stream silent (not even a comment) for this long is treated as
  /// dropped: resumed when it can be, else its requests fail.
  std::chrono::milliseconds stream_idle_timeout{300'000};
  /// close(): the DELETE of the session, and the wait for background work.
  std::chrono::milliseconds close_timeout{2'000};

  /// Connections held by POSTs of requests (they stay open while an answer
  /// streams, resumptions included); further requests wait in write_frame
  /// (bounded by the client's write_timeout). Notifications and responses
  /// (answered at once) and the GET stream do not count, so a cancellation
  /// or an answer to the server never waits behind long calls.
  std::size_t max_connections = 16;
  /// Listen on the GET stream once the session is initialized (405: the
  /// server offers none, which is fine).
  bool listen = true;

  /// Reconnecting a dropped SSE stream (the GET stream, or a POST's stream
  /// resumed with Last-Event-ID): the server's `retry` when it sent one, else
  /// this delay growing by `reconnect_growth` up to `max_reconnect_delay`.
  /// After `max_reconnects` attempts in a row without a new event, give up.
  std::chrono::milliseconds reconnect_delay{1'000};
  double reconnect_growth = 1.5;  ///< the factor of each next delay
  std::chrono::milliseconds max_reconnect_delay{30'000};  ///< the longest delay
  int max_reconnects = 5;  ///< attempts in a row without a new event before giving up

  /// TLS (https URLs): the CA certificates to trust (PEM file); empty: the
  /// system's default paths. The server's certificate and host name are
  /// verified unless `verify_peer` is false.
  std::string ca_file = {};
  bool verify_peer = true;  ///< https: verify the certificate and host name

  /// The bound on one JSON body or one SSE event; larger ones are dropped
  /// (a request whose answer is dropped fails).
  std::size_t max_message_size = default_max_frame_size;
};

/// A transport to the MCP server at `url` (http or https). Lazy: nothing is
/// sent until the first frame (the client's `server/discover` probe or
/// `initialize`), so a server that is down shows as a failed connect, whose
/// error names the URL and the cause. Throws mcp::invalid_argument for a URL that is not http(s), has no
/// host or carries credentials, and for a header with a line break in it;
/// mcp::error when `ca_file` cannot be loaded.
///
/// The transport runs on `ex` (use a strand when the io_context has several
/// threads). read_frame() returns std::nullopt once closed, and when the
/// HTTP+SSE stream ends; it throws when that stream fails.
///
/// Cancellation: nothing to cancel: it makes the transport without waiting.
/// The exchanges come later, with the client's requests, and are cancelled
/// with them (client.hpp).
MCP_API asio::awaitable<std::unique_ptr<message_transport>> connect_http(asio::any_io_executor ex,
                                                                 std::string url);
/// The same, with options. (An overload, not a defaulted argument: see
/// docs/compilers.md.)
MCP_API asio::awaitable<std::unique_ptr<message_transport>> connect_http(asio::any_io_executor ex,
                                                                 std::string url,
                                                                 http_client_options options);

}  // namespace mcp
