#pragma once
// Serves a server behaviour over HTTP (spec: basic/transports):
// - Streamable HTTP (2025-03-26 on): one endpoint that takes POSTed JSON-RPC
//   messages and answers with JSON or a resumable SSE stream, a GET stream
//   for server-initiated messages, DELETE to end a session;
// - beside it, the legacy HTTP+SSE transport of 2024-11-05 (a GET stream that
//   carries everything, and an endpoint for POSTs), on the same sessions.
//
// One coroutine per HTTP connection, no thread per connection. The server
// runs on the executor it is given, on as many threads as
// http_server_options::threads says (docs/http.md, "Threads"); servers that
// share their stores and a message bus serve one set of sessions, in one
// process or many (docs/scale-out.md).

#include <mcp/auth/token_verifier.hpp>
#include <mcp/server/behaviour.hpp>
#include <mcp/server/event_store.hpp>
#include <mcp/server/message_bus.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/session_store.hpp>
#include <mcp/server/task_store.hpp>
#include <mcp/telemetry/metrics.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// OAuth 2.1 protection (spec: basic/authorization; docs/auth.md): the MCP
/// endpoints (Streamable HTTP and legacy SSE) take only requests with a
/// bearer token the verifier accepts and that carries the required scopes,
/// and the Protected Resource Metadata (RFC 9728) is served, without a
/// token, at `/.well-known/oauth-protected-resource` and at that path
/// followed by the endpoint's path.
struct http_auth_options {
  http_auth_options() {}  // not an aggregate (docs/compilers.md)
  /// Checks the tokens: auth::make_jwt_verifier, make_introspection_verifier,
  /// or your own. The server calls verify() from one strand of its own; a
  /// verifier made on another executor must be safe to call from any thread
  /// (the library's are not: give make_verifier instead when the server runs
  /// on several threads). This or `make_verifier` is required.
  std::shared_ptr<auth::token_verifier> verifier;
  /// Makes the verifier on the strand the server calls it from, when
  /// `verifier` is null (for run_http_server, which makes its own
  /// io_context, and for a server on several threads).
  std::function<std::shared_ptr<auth::token_verifier>(asio::any_io_executor)> make_verifier = nullptr;
  /// This server's resource identifier (RFC 8707, RFC 9728 `resource`): the
  /// public URL of the MCP endpoint, e.g. `https://mcp.example.com/mcp`.
  /// Tokens must be issued for it (the verifier checks their audience).
  /// Required.
  std::string resource;
  /// The issuers clients may get tokens from (`authorization_servers`).
  std::vector<std::string> authorization_servers;
  /// Every request needs these scopes (403 `insufficient_scope` without them);
  /// tools, resources and prompts may ask for more (`required_scopes`).
  std::vector<std::string> required_scopes;
  /// `scopes_supported` of the metadata; empty: `required_scopes`.
  std::vector<std::string> scopes_supported;
  std::string resource_name;           ///< `resource_name`, when set
  std::string resource_documentation;  ///< `resource_documentation`, when set
  /// Scope hierarchies: whether a granted scope covers a required one.
  /// Null: exact match only.
  auth::scope_implication scope_implies = nullptr;
  /// A longer bearer token is refused (401 invalid_token) unread.
  std::size_t max_token_size = 16 * 1024;
  /// DPoP (RFC 9449): tokens bound to a key of the client's (`cnf.jkt`) are
  /// taken with a proof of the key on each request (`Authorization: DPoP`
  /// and a `DPoP` header), besides Bearer tokens; the challenges and the
  /// metadata say so. A bound token presented as Bearer is refused.
  bool dpop = true;
  /// Refuse Bearer tokens: DPoP only (`dpop_bound_access_tokens_required`).
  bool dpop_required = false;
  /// The proof algorithms taken (asymmetric ones only).
  std::vector<std::string> dpop_algorithms = {"ES256", "ES384", "ES512", "PS256", "RS256", "EdDSA"};
  /// How far a proof's `iat` may be from now; its `jti` is remembered that long.
  std::chrono::seconds dpop_proof_window{300};
};

/// The stores that servers share to serve one set of sessions.
struct shared_stores {
  std::shared_ptr<session_store> sessions;
  std::shared_ptr<event_store> events;
  std::shared_ptr<message_bus> bus;
  /// Task records (docs/tasks.md); null: each server keeps its own. While
  /// the HTTP server runs, its behaviour keeps its tasks here unless it was
  /// given a store of its own (server_behaviour::share_task_store).
  std::shared_ptr<task_store> tasks = nullptr;
  /// Ends their connections (so that nothing keeps the io_context busy): a
  /// server that made the stores (make_stores) calls it once it has stopped.
  std::function<void()> close = nullptr;
};

struct http_server_options {
  std::string host = "127.0.0.1";  ///< the address to listen on
  std::uint16_t port = 0;          ///< 0 picks a free port (see local_port)
  std::string path = "/mcp";       ///< the Streamable HTTP endpoint
  /// How many threads run the server: run_http_server starts this many, and
  /// an http_server given an executor must be told how many run it. 0: one
  /// per core. With more than one, every connection and every session runs
  /// on a strand of its own, and handlers of different sessions run at the
  /// same time (docs/http.md, "Threads"); with 1, on the executor itself,
  /// which spares the hops between strands.
  unsigned threads = 0;
  /// The legacy HTTP+SSE transport (2024-11-05): a GET here opens a session
  /// and its stream, whose first event names the endpoint for its POSTs.
  /// Empty turns the legacy transport off (it is always off when stateless).
  std::string legacy_sse_path = "/sse";
  std::string legacy_messages_path = "/messages";  ///< legacy POSTs, `?sessionId=`
  /// TLS: PEM files of the certificate chain and of its private key. Both
  /// empty: plain HTTP.
  std::string tls_certificate_file = {};
  std::string tls_private_key_file = {};
  /// Answer every request with application/json, never an SSE stream; what a
  /// handler sends during a call then goes to the session's GET stream.
  bool json_only = false;
  /// No sessions: no Mcp-Session-Id, every POST is served on its own as if
  /// initialized with the version of its MCP-Protocol-Version header
  /// (2025-03-26 when absent); GET and DELETE answer 405.
  bool stateless = false;
  /// MCP over WebSocket on `path` as well, our own extension (the spec has
  /// no WebSocket binding; docs/transports.md): a GET with `Upgrade:
  /// websocket` offering the `mcp` subprotocol is upgraded once it has met
  /// the rules every request meets (Origin and Host, OAuth, 503 while
  /// shutting down, `max_sessions`). The connection is then one MCP
  /// connection with a session of its own, like stdio, in either era (also
  /// when `stateless`): one JSON-RPC message per text message, none over
  /// `max_body_size` (else closed with 1009). Off unless asked for, as
  /// extensions should be.
  bool websocket = false;
  /// WebSocket keep-alive: a ping after this long without a frame from the
  /// client; a client that sends nothing back within as long again is dropped.
  std::chrono::milliseconds websocket_ping_interval{30'000};
  /// Browser origins allowed besides localhost ones (exact `scheme://host[:port]`).
  std::vector<std::string> allowed_origins = {};
  /// The names this server is reached by (DNS rebinding protection,
  /// docs/security.md): `host` (any port) or `host:port`, any case. On a
  /// loopback address localhost names are allowed besides these, and the
  /// Host header is always checked; on any other address it is checked when
  /// this is not empty: set it whenever the server is reachable from a
  /// browser's network (0.0.0.0 on a laptop, an intranet), since a page whose
  /// name resolves to your server sends its own name as Host. 403 otherwise.
  std::vector<std::string> allowed_hosts = {};
  std::size_t max_body_size = 4 * 1024 * 1024;
  std::size_t max_header_size = 16 * 1024;
  std::size_t max_sessions = 10'000;  ///< beyond it, initialize gets 503
  std::size_t max_connections = 4096;  ///< beyond it, new connections are closed at once
  /// SSE streams one session may have open at once (POST streams and its GET
  /// stream); beyond it a request gets 429.
  std::size_t max_streams_per_session = 64;
  std::chrono::seconds idle_timeout{30 * 60};
  /// A connection that brings no whole request for this long is closed: an
  /// idle keep-alive connection, or a client that trickles its headers.
  std::chrono::milliseconds request_timeout{60'000};
  /// A response (or TLS handshake) the client does not take within this long
  /// closes the connection.
  std::chrono::milliseconds write_timeout{30'000};
  std::chrono::seconds keep_alive_interval{15};  ///< SSE comment lines on idle streams
  /// The SSE `retry` the server sends: how long a client waits before it
  /// resumes a stream whose connection the server closed.
  std::chrono::milliseconds retry_interval{1000};
  /// On stop(), calls in flight get this long to finish (their answers are
  /// still delivered); then they are cancelled and the connections closed.
  std::chrono::milliseconds shutdown_timeout{10'000};
  /// Where SSE events are kept for resumption; null: a bounded in-memory store.
  std::shared_ptr<event_store> events = nullptr;
  /// Where sessions are recorded; null: in memory. Share one between servers
  /// (or back it with a shared database) and any of them serves any session.
  std::shared_ptr<session_store> sessions = nullptr;
  /// What servers sharing `sessions` and `events` send each other (a stream
  /// resumed on another server, a GET stream held there, answers and
  /// cancellations of requests running there, the end of a session). Set
  /// all three to serve one set of sessions from many servers behind any
  /// load balancer (docs/scale-out.md); null: this server shares nothing live.
  std::shared_ptr<message_bus> bus = nullptr;
  /// Makes the three shared stores on the server's executor, when set: for
  /// run_http_server, which makes its own io_context
  /// (cluster::make_redis_stores). Takes precedence over the three above.
  std::function<shared_stores(asio::any_io_executor)> make_stores = nullptr;
  /// How each session is served (requests in flight, queues, timeouts,
  /// the requestState key).
  session_options session = {};
  /// OAuth 2.1 protection; unset: none (anyone who reaches the port is served).
  std::optional<http_auth_options> auth = std::nullopt;
  /// Prometheus metrics (docs/observability.md, "Metrics"): when set, a GET
  /// of `metrics_path` on this listener answers the registry's text, under
  /// the Host and Origin rules of the MCP endpoint but never OAuth (a
  /// scraper has no token: keep the port from the world when that matters).
  /// Fill it with telemetry::record_mcp_metrics.
  std::shared_ptr<const telemetry::metrics_registry> metrics = nullptr;
  std::string metrics_path = "/metrics";
};

class http_server {
 public:
  /// Binds the listening socket (throws system_error when it cannot).
  http_server(asio::any_io_executor ex, server_behaviour& behaviour, http_server_options options);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  std::uint16_t local_port() const;

  /// Accepts connections until stop(); returns once every session has ended
  /// and every connection is closed.
  asio::awaitable<void> run();
  /// Graceful shutdown: stops accepting, lets calls in flight finish and
  /// deliver their answers within `shutdown_timeout`, then cancels what is
  /// left and closes every stream and connection. A second stop() cancels
  /// at once. A handler that ignores its cancellation does not hold run()
  /// past the deadline (and 1.5 s): run() returns, its session still counted
  /// by session_count() until the handler ends. Call from any thread.
  void stop();

  /// The sessions served here now. Call from any thread.
  std::size_t session_count() const;

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

/// Serves `behaviour` over HTTP until SIGINT/SIGTERM (then shuts down
/// gracefully; a second signal stops at once), printing the endpoint URL on
/// stdout once listening. Returns the process exit code; when handlers that
/// ignore cancellation outlive the shutdown, ends the process instead
/// (std::_Exit with that code): they still use the behaviour and the server.
int run_http_server(server_behaviour& behaviour, http_server_options options);

}  // namespace mcp
