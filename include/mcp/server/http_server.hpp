#pragma once
// Serves a server behaviour over HTTP (spec: basic/transports):
// - Streamable HTTP (2025-03-26 on): one endpoint that takes POSTed JSON-RPC
//   messages and answers with JSON or a resumable SSE stream, a GET stream
//   for server-initiated messages, DELETE to end a session;
// - beside it, the legacy HTTP+SSE transport of 2024-11-05 (a GET stream that
//   carries everything, and an endpoint for POSTs), on the same sessions.
//
// The built-in listener: a socket of its own, one coroutine per HTTP
// connection, no thread per connection, serving an http_endpoint
// (http_endpoint.hpp), which holds every MCP rule; an application with an
// HTTP server of its own mounts the endpoint there instead
// (docs/embedding.md). The server runs on the executor it is given, on as
// many threads as http_server_options::threads says (docs/http.md,
// "Threads"); servers that share their stores and a message bus serve one
// set of sessions, in one process or many (docs/scale-out.md).

#include <mcp/export.hpp>
#include <mcp/server/http_endpoint.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace mcp {

/// The built-in listener's options: the endpoint's, and its sockets'.
struct MCP_API http_server_options : http_endpoint_options {
  std::string host = "127.0.0.1";  ///< the address to listen on
  std::uint16_t port = 0;          ///< 0 picks a free port (see local_port)
  /// TLS: PEM files of the certificate chain and of its private key. Both
  /// empty: plain HTTP.
  std::string tls_certificate_file = {};
  std::string tls_private_key_file = {};    ///< See tls_certificate_file.
  std::size_t max_header_size = 16 * 1024;  ///< bytes of a request's head; beyond it, 431
  std::size_t max_connections = 4096;  ///< beyond it, new connections are closed at once
  /// A connection that brings no whole request for this long is closed: an
  /// idle keep-alive connection, or a client that trickles its headers.
  std::chrono::milliseconds request_timeout{60'000};
};

/// The built-in HTTP listener: serves a behaviour's http_endpoint on a
/// socket of its own (see the top of this file, docs/http.md).
///
/// @par Thread safety
/// stop() and session_count() may be called from any thread; the other
/// members from the code that owns the server (local_port() not while a
/// stop() may be closing the socket). The behaviour it serves is called
/// from many threads at once (server_behaviour says how).
class MCP_API http_server {
 public:
  /// Binds the listening socket (throws boost::system::system_error when it
  /// cannot, or cannot read the TLS files); the endpoint is live from here,
  /// and connections are taken once run() runs.
  http_server(asio::any_io_executor ex, server_behaviour& behaviour, http_server_options options);
  /// Stops the server (as stop()) if it runs.
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  /// The port it listens on (the one picked, for port 0).
  std::uint16_t local_port() const;

  /// Accepts connections until stop(); returns once every session has ended
  /// and every connection is closed. Cancellation: before stop(), a
  /// terminal cancellation of the awaiting coroutine stops accepting and
  /// ends run() with operation_aborted, but shuts nothing down: the
  /// sessions are still served, and the socket still bound, until stop().
  /// Once run() waits for the shutdown to end, a cancellation is not seen.
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

/// How run_http_server ended.
struct MCP_API http_run_result {
  int exit_code = 0;  ///< 0 after a clean stop; 1 when the server failed
  /// Handlers that ignore their cancellation were still running past the
  /// shutdown deadline. They go on using the behaviour, so the program must
  /// not destroy it: end the process (std::_Exit) rather than return.
  bool handlers_left_running = false;
};

/// Serves `behaviour` over HTTP on threads of its own (options.threads) until
/// SIGINT or SIGTERM, then shuts down gracefully; a second signal stops at
/// once. `on_listening` is called once the socket listens, with the
/// endpoint's URL (a program started on port 0 tells its caller, say by
/// printing it). Prints nothing and never ends the process itself.
MCP_API http_run_result run_http_server(server_behaviour& behaviour, http_server_options options,
                                std::function<void(std::string_view url)> on_listening = nullptr);

}  // namespace mcp
