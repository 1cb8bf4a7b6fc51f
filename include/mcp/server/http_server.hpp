#pragma once
// Serves a server behaviour over Streamable HTTP (spec: basic/transports,
// "Streamable HTTP"): one endpoint that takes POSTed JSON-RPC messages and
// answers with JSON or an SSE stream, a GET stream for server-initiated
// messages, DELETE to end a session, and `Mcp-Session-Id` sessions.
//
// One coroutine per HTTP connection, no thread per connection. The server
// runs on the executor it is given: run that io_context on one thread (the
// sessions share state without locks).

#include <mcp/server/behaviour.hpp>
#include <mcp/server/serve.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mcp {

struct http_server_options {
  std::string host = "127.0.0.1";  ///< the address to listen on
  std::uint16_t port = 0;          ///< 0 picks a free port (see local_port)
  std::string path = "/mcp";       ///< the MCP endpoint
  /// Answer every request with application/json, never an SSE stream; what a
  /// handler sends during a call then goes to the session's GET stream.
  bool json_only = false;
  /// No sessions: no Mcp-Session-Id, every POST is served on its own as if
  /// initialized with the version of its MCP-Protocol-Version header
  /// (2025-03-26 when absent); GET and DELETE answer 405.
  bool stateless = false;
  /// Browser origins allowed besides localhost ones (exact `scheme://host[:port]`).
  std::vector<std::string> allowed_origins = {};
  /// Host header values allowed besides localhost ones, when listening on loopback.
  std::vector<std::string> allowed_hosts = {};
  std::size_t max_body_size = 4 * 1024 * 1024;
  std::size_t max_header_size = 16 * 1024;
  std::size_t max_sessions = 10'000;  ///< beyond it, initialize gets 503
  std::size_t max_connections = 4096;  ///< beyond it, new connections are closed at once
  std::chrono::seconds idle_timeout{30 * 60};
  std::chrono::seconds keep_alive_interval{15};  ///< SSE comment lines on idle streams
  server_options engine = {};
};

class http_server {
 public:
  /// Binds the listening socket (throws system_error when it cannot).
  http_server(asio::any_io_executor ex, server_behaviour& behaviour, http_server_options options);
  ~http_server();
  http_server(const http_server&) = delete;
  http_server& operator=(const http_server&) = delete;

  std::uint16_t local_port() const;

  /// Accepts connections until stop(); then ends every session and returns.
  asio::awaitable<void> run();
  /// Stops accepting and ends the sessions (their in-flight requests are cancelled).
  void stop();

  std::size_t session_count() const;

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

/// Serves `behaviour` over HTTP until SIGINT/SIGTERM, printing the endpoint
/// URL on stdout once listening. Returns the process exit code.
int run_http_server(server_behaviour& behaviour, http_server_options options);

}  // namespace mcp
