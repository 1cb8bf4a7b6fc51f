#pragma once
// An MCP endpoint that any HTTP server can drive (docs/embedding.md): the
// whole of MCP over HTTP (spec: basic/transports) as a function from one
// HTTP request to its response, for an application that already runs an
// HTTP server of its own (Beast, cpp-httplib, CivetWeb, ...), and the core
// that the built-in listener (http_server.hpp) drives the same way.
//
// Every rule stays inside: Host and Origin checks, OAuth challenges, token
// and DPoP checks, limits, sessions and their stores, resumability with
// Last-Event-ID, both protocol eras, tasks, subscriptions/listen streams,
// servers sharing a message bus. An adapter is a dumb pipe: it hands over
// each request whose path routes() lists, writes the status, the headers and
// the body it gets back, and pulls a streamed (SSE) body until it ends,
// closing it when its client goes away.
//
// Threads: the endpoint runs on the executor it is given, on as many threads
// as http_endpoint_options::threads says; async_handle() and stop() may be
// called from any thread, and so may every member of http_body_stream.

#include <mcp/export.hpp>
#include <mcp/auth/token_verifier.hpp>
#include <mcp/server/behaviour.hpp>
#include <mcp/server/event_store.hpp>
#include <mcp/server/message_bus.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/session_store.hpp>
#include <mcp/server/task_store.hpp>
#include <mcp/telemetry/metrics.hpp>
#include <mcp/transport/header_list.hpp>
#include <mcp/transport/upgraded_stream.hpp>

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>
#include <cstddef>
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
struct MCP_API http_auth_options {
  /// The defaults below (verifier and resource are still to be set).
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
struct MCP_API shared_stores {
  std::shared_ptr<session_store> sessions;  ///< As http_endpoint_options::sessions.
  std::shared_ptr<event_store> events;      ///< As http_endpoint_options::events.
  std::shared_ptr<message_bus> bus;         ///< As http_endpoint_options::bus.
  /// Task records (docs/tasks.md); null: each server keeps its own. While
  /// the HTTP server runs, its behaviour keeps its tasks here unless it was
  /// given a store of its own (server_behaviour::share_task_store).
  std::shared_ptr<task_store> tasks = nullptr;
  /// Ends their connections (so that nothing keeps the io_context busy): a
  /// server that made the stores (make_stores) calls it once it has stopped.
  std::function<void()> close = nullptr;
};

/// What an MCP endpoint serves, whoever carries its requests: everything
/// but sockets (http_server_options adds those for the built-in listener).
struct MCP_API http_endpoint_options {
  std::string path = "/mcp";  ///< the Streamable HTTP endpoint
  /// How many threads run the endpoint's executor (0: one per core). With
  /// more than one, every exchange and every session runs on a strand of its
  /// own, and handlers of different sessions run at the same time
  /// (docs/http.md, "Threads"); with 1, on the executor itself, which spares
  /// the hops between strands. Say 1 only when exactly one thread runs it.
  unsigned threads = 0;
  /// The legacy HTTP+SSE transport (2024-11-05): a GET here opens a session
  /// and its stream, whose first event names the endpoint for its POSTs.
  /// Empty turns the legacy transport off (it is always off when stateless).
  std::string legacy_sse_path = "/sse";
  std::string legacy_messages_path = "/messages";  ///< legacy POSTs, `?sessionId=`
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
  /// extensions should be. Served by the built-in listener, and by an
  /// application's server that can hand the connection over
  /// (http_endpoint_request::can_upgrade: the Beast adapter does).
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
  /// name resolves to your server sends its own name as Host; and set it to
  /// the public name when a proxy on the same host forwards to a loopback
  /// address. 403 otherwise.
  std::vector<std::string> allowed_hosts = {};
  /// The largest request body read (413 beyond it), and over WebSocket the
  /// largest message (the connection is then closed with 1009).
  std::size_t max_body_size = 4 * 1024 * 1024;
  std::size_t max_sessions = 10'000;  ///< beyond it, initialize gets 503
  /// SSE streams one session may have open at once (POST streams and its GET
  /// stream); beyond it a request gets 429.
  std::size_t max_streams_per_session = 64;
  /// A session that gets no HTTP request for this long ends (the
  /// `session.expired` event), and so does its record in the session store,
  /// unless its client reads one of its SSE streams (a client listening on
  /// its GET stream keeps its session). A legacy (HTTP+SSE) session lasts as
  /// long as its stream instead.
  std::chrono::seconds idle_timeout{30 * 60};
  /// A response the client does not take within this long ends: its
  /// connection closes (the listener), or its body stream fails (an
  /// exchange whose reader pulls nothing).
  std::chrono::milliseconds write_timeout{30'000};
  /// How often an idle SSE stream gets a comment line, to keep it open.
  std::chrono::seconds keep_alive_interval{15};
  /// The SSE `retry` the server sends: how long a client waits before it
  /// resumes a stream whose connection the server closed.
  std::chrono::milliseconds retry_interval{1000};
  /// On stop(), calls in flight get this long to finish (their answers are
  /// still delivered); then they are cancelled and the streams closed.
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
  /// OAuth 2.1 protection; unset: none (anyone who reaches the endpoint is served).
  std::optional<http_auth_options> auth = std::nullopt;
  /// Prometheus metrics (docs/observability.md, "Metrics"): when set, a GET
  /// of `metrics_path` answers the registry's text, under the Host and
  /// Origin rules of the MCP endpoint but never OAuth (a scraper has no
  /// token: keep the port from the world when that matters). Fill it with
  /// telemetry::record_mcp_metrics.
  std::shared_ptr<const telemetry::metrics_registry> metrics = nullptr;
  /// Where the metrics page is served, when `metrics` is set.
  std::string metrics_path = "/metrics";
};

/// One HTTP request, as the application's server read it.
struct MCP_API http_endpoint_request {
  std::string method;  ///< "GET", "POST", "DELETE", ... (as sent)
  std::string target;  ///< the request target: the path and the query ("/messages?sessionId=...")
  header_list headers;         ///< Every header field as received (the endpoint reads their names in any case).
  std::string body;            ///< The body (an adapter reads at most max_body_size and one byte more).
  unsigned http_version = 11;  ///< 10 or 11
  /// The client's address and port ("203.0.113.7:51234"): telemetry, logs,
  /// and handlers' transport_metadata::peer.
  std::string remote_endpoint = {};
  /// The address (and port) the request came in on. On a loopback address
  /// the Host header must be a localhost name or in `allowed_hosts` (DNS
  /// rebinding protection); empty: not known to be loopback.
  std::string local_endpoint = {};
  /// `scheme://authority` as the client reached the endpoint (`https://`
  /// over TLS; behind a proxy, the public one), when it differs from the
  /// OAuth resource URL's: the URL a DPoP proof names (`htu`) is this and the
  /// request's path. Empty: the origin of http_auth_options::resource. (It
  /// is all the endpoint needs to know of TLS.)
  std::string public_origin = {};
  /// Whether the application's server can hand this request's connection
  /// over (http_endpoint_response::upgrade), so that a WebSocket upgrade
  /// can be served (http_endpoint_options::websocket). False: an upgrade
  /// request is served as the GET it also is.
  bool can_upgrade = false;
};

/// A WebSocket upgrade the endpoint accepted (http_endpoint_response::upgrade),
/// waiting for its connection. Any thread.
class MCP_API http_upgrade {
 public:
  virtual ~http_upgrade() = default;
  /// Hands the connection over: the endpoint answers 101 on it, then serves
  /// MCP over WebSocket until the session ends (either side closes it, the
  /// endpoint stops, the token expires). Completion signature
  /// `void(boost::system::error_code)`, once the endpoint has let go of
  /// `stream` (the error when the handshake failed): the connection carries
  /// nothing more, close it. Nothing else may use the connection meanwhile.
  /// Dropping the upgrade without this (or waiting longer than the
  /// handshake timeout, 5 s at most) ends it. Cancellation: not supported
  /// (a slot bound to the token is not used): it ends with the session, as
  /// said above (stop() ends it too).
  template <class CompletionToken>
  auto async_run(std::unique_ptr<upgraded_stream> stream, CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(boost::system::error_code)>(
        [this](auto handler, std::unique_ptr<upgraded_stream> stream) {
          start_run(std::move(stream), std::move(handler));
        },
        token, std::move(stream));
  }

 protected:
  /// What async_run() starts; the endpoint implements it.
  virtual void start_run(std::unique_ptr<upgraded_stream> stream,
                         boost::asio::any_completion_handler<void(boost::system::error_code)> handler) = 0;
};

/// A streamed (SSE) response body, which the application's server pulls
/// and writes as it comes (chunked, or until the connection closes). The
/// endpoint writes the events, their ids, `retry` and keep-alive comments on
/// its own timer (keep_alive_interval); the body is bounded: an endpoint
/// whose reader takes nothing for write_timeout ends it. Every member may
/// be called from any thread; one read at a time.
class MCP_API http_body_stream {
 public:
  /// What a read gives: bytes of the body, or the error that ends it:
  /// asio::error::eof once the body has ended whole; any other when the
  /// endpoint gave it up (connection_aborted: its reader took nothing for
  /// write_timeout, and what was queued is dropped; or the exchange ended
  /// before the body did); asio::error::timed_out only from read(), which
  /// waited `timeout` in vain (the body goes on).
  struct chunk {
    boost::system::error_code error;  ///< Why the body ended (or read() timed out); none while it goes on.
    std::string data;                 ///< Bytes of the body to write, possibly none.
  };

  virtual ~http_body_stream() = default;

  /// Waits for more of the body. Completion signature:
  /// `void(boost::system::error_code, std::string)`, as chunk says. The
  /// handler runs on its associated executor (the endpoint's when it has
  /// none). Works with any completion token: callbacks, asio::use_future,
  /// asio::deferred, asio::use_awaitable. Cancellation: not supported (a
  /// slot bound to the token is not used); close() completes a read that
  /// waits, with operation_aborted.
  template <class CompletionToken>
  auto async_read(CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(boost::system::error_code, std::string)>(
        [this](auto handler) { start_read(std::move(handler)); }, token);
  }
  /// The same, blocking the calling thread for at most `timeout`: for a
  /// server with a thread per connection (cpp-httplib). Never on a thread
  /// that runs the endpoint's executor.
  virtual chunk read(std::chrono::milliseconds timeout) = 0;
  /// The client went away, or the application gives up on the body: the
  /// endpoint lets its stream go (a resumable one waits for the client's
  /// resumption). Idempotent; destroying the body stream closes it too.
  virtual void close() = 0;

 protected:
  /// What async_read() starts; the endpoint implements it.
  virtual void start_read(boost::asio::any_completion_handler<void(boost::system::error_code, std::string)>) = 0;
};

/// The response to one request.
struct MCP_API http_endpoint_response {
  unsigned status = 200;  ///< The HTTP status code (101 with `upgrade`).
  /// The headers to send (Content-Type, Mcp-Session-Id, WWW-Authenticate,
  /// Allow, Cache-Control...). Framing is the application's server's:
  /// Content-Length, Transfer-Encoding and Connection are never among them.
  header_list headers;
  /// The whole body, when `stream` is null.
  std::string body;
  /// A body that comes as it is written (text/event-stream): pull it until
  /// it ends, and close it when the client goes away.
  std::shared_ptr<http_body_stream> stream;
  /// Set (status 101) when the request was a WebSocket upgrade that the
  /// endpoint accepted: write nothing, and hand the connection over with
  /// `upgrade->async_run()`, which answers the 101 itself. Only for a
  /// request that said `can_upgrade`.
  std::shared_ptr<http_upgrade> upgrade;
};

/// One path the application routes to the endpoint.
struct MCP_API http_endpoint_route {
  std::string path;                  ///< the path, matched exactly (no pattern, no query)
  std::vector<std::string> methods;  ///< those the endpoint serves there (others get 405)
  std::string purpose;               ///< what it is, for logs and docs
};

/// MCP over HTTP for an application's own HTTP server: it hands each
/// request of routes() to async_handle() and writes back the response (see
/// the top of this file, docs/embedding.md, and the adapters of
/// mcp/adapters/).
///
/// @par Thread safety
/// async_handle(), stop(), async_stop() and session_count() may be called
/// from any thread (they go to the endpoint's executor, or read its tables
/// under a mutex); routes() and options() read what the constructor fixed.
/// The behaviour it serves is called from many threads at once
/// (server_behaviour says how).
class MCP_API http_endpoint {
 public:
  /// Live at once: serves requests from here until stop(). Throws
  /// mcp::invalid_argument on options that cannot work (paths that collide,
  /// OAuth without a verifier or resource URL).
  http_endpoint(asio::any_io_executor ex, server_behaviour& behaviour, http_endpoint_options options);
  /// Stops the endpoint (as stop()) if it runs: the sessions it served end
  /// in the background, on its executor, using the behaviour; wait for
  /// async_stop() before destroying the behaviour or the executor.
  ~http_endpoint();
  http_endpoint(const http_endpoint&) = delete;
  http_endpoint& operator=(const http_endpoint&) = delete;

  /// The paths the application must route here, with their methods: the
  /// MCP endpoint, the legacy `/sse` and `/messages`, both OAuth Protected
  /// Resource Metadata URLs (with auth), the metrics path (with metrics).
  /// A request for any other path is answered 404.
  std::vector<http_endpoint_route> routes() const;

  /// Serves one request. Completion signature:
  /// `void(http_endpoint_response)`: once its head is known, which for a
  /// stream is before its body is written. Never fails: a request the
  /// endpoint refuses gets its HTTP status and JSON-RPC error, a handler
  /// that throws its JSON-RPC error, a fault of the endpoint a 500. Any
  /// thread; works with any completion token. Cancellation: not supported
  /// (a cancellation slot bound to the token is not used); a streamed
  /// response is given up with http_body_stream::close().
  template <class CompletionToken>
  auto async_handle(http_endpoint_request request, CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void(http_endpoint_response)>(
        [this](auto handler, http_endpoint_request request) { start_handle(std::move(request), std::move(handler)); },
        token, std::move(request));
  }

  /// Graceful shutdown: new requests get 503, calls in flight get
  /// `shutdown_timeout` to finish and deliver their answers, then what is
  /// left is cancelled and every stream ends. A second stop() cancels at
  /// once. Any thread.
  void stop();
  /// stop(), completing (`void()`) once every session has ended and every
  /// stream has closed (a handler that ignores its cancellation is left
  /// behind 1.5 s after the deadline; session_count() still counts it).
  /// Cancellation: not supported (a slot bound to the token is not used).
  template <class CompletionToken>
  auto async_stop(CompletionToken&& token) {
    return boost::asio::async_initiate<CompletionToken, void()>(
        [this](auto handler) { start_stop(std::move(handler)); }, token);
  }

  /// The sessions served now. Any thread.
  std::size_t session_count() const;

  /// The options it was made with (an adapter reads at most `max_body_size`
  /// of a body, and one more byte, which the endpoint refuses with 413).
  const http_endpoint_options& options() const noexcept;

  struct impl;

 private:
  void start_handle(http_endpoint_request request, asio::any_completion_handler<void(http_endpoint_response)> handler);
  void start_stop(asio::any_completion_handler<void()> handler);

  std::shared_ptr<impl> impl_;
};

}  // namespace mcp
