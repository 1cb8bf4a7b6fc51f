#pragma once
// An HTTP MCP server on threads of its own, for a program whose main thread
// is its own: a plain main() that goes on with other work, a Qt or other GUI
// application, a game loop.

#include <mcp/export.hpp>
#include <mcp/server/http_server.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace mcp {

/// Serves `behaviour` over HTTP (the built-in listener) on
/// `options.threads` threads of its own, from construction until stop().
///
///   mcp::server srv({"my-app", "1.0"});
///   mcp::background_http_server http(srv, {});   // listening on a free port
///   std::cout << http.url() << "\n";
///   ... the program's own loop ...
///   http.stop();                                  // graceful; returns at once
///   http.wait();                                  // returns once done
///
/// Handlers run on its threads, so state they share with the program needs
/// the program's own synchronisation (for a GUI: post to its thread).
///
/// @par Thread safety
/// Every member may be called from any thread but the server's own.
class MCP_API background_http_server {
 public:
  /// Binds the socket and starts the threads; throws
  /// boost::system::system_error when the address cannot be bound. The
  /// behaviour must outlive the server.
  background_http_server(server_behaviour& behaviour, http_server_options options);
  /// stop(), then wait().
  ~background_http_server();
  background_http_server(const background_http_server&) = delete;
  background_http_server& operator=(const background_http_server&) = delete;

  /// The port it listens on (the one picked, for port 0).
  std::uint16_t port() const;
  /// The endpoint's URL, e.g. "http://127.0.0.1:43117/mcp".
  const std::string& url() const;
  /// The executor its handlers run on.
  asio::any_io_executor get_executor() const;
  /// The sessions served now.
  std::size_t session_count() const;

  /// Begins the graceful shutdown (http_server::stop): calls in flight finish
  /// within `shutdown_timeout`; a second stop() cancels them at once. Returns
  /// at once.
  void stop();
  /// Waits until the server has stopped and its threads have ended. When
  /// handlers ignore their cancellation past the shutdown deadline, it
  /// returns anyway with handlers_left_running set: they still use the
  /// behaviour, which must then outlive them (end the process).
  http_run_result wait();

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp
