#pragma once
// The server's side of one HTTP connection, plain TCP or TLS
// (transport/http/stream.hpp), behind one small interface so that the code
// above is written and compiled once for both: reading requests, writing
// responses, watching for the client going away.

#include "http_request.hpp"
#include "../../websocket/websocket_connection.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/status.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace boost::asio::ssl {
class context;
}

namespace mcp::detail {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

class connection_io {
 public:
  /// What has gone through the connection, for its telemetry: bytes both
  /// ways (counted by the reads and writes), and what the writer of the
  /// response last begun noted of it.
  struct traffic {
    std::uint64_t bytes_in = 0;
    std::uint64_t bytes_out = 0;
    unsigned status = 0;     ///< the response's status
    std::string session_id;  ///< the Mcp-Session-Id the response gave (initialize)
  };

  virtual ~connection_io() = default;

  traffic& counted() noexcept { return traffic_; }

  /// Reads one request within `timeout`; the error says why not
  /// (end_of_stream, body_limit, header_limit, timeout...). A request begun
  /// but not whole within `timeout` (headers trickled in, a body that
  /// stalls) is answered 408 with `Connection: close` here before the
  /// timeout is returned (RFC 9110, 15.5.9); a connection that sent nothing
  /// is not. A request whose body is over the limit is not kept alive.
  virtual asio::awaitable<boost::system::error_code> read(beast::flat_buffer& buffer,
                                                          request_reader& reader,
                                                          std::chrono::milliseconds timeout) = 0;
  /// Writes bytes of a response. Throws system_error (also on the write timeout).
  virtual asio::awaitable<void> write_bytes(std::string_view bytes) = 0;
  /// Writes what the connection takes without waiting, and says how much:
  /// most responses fit in a socket's send buffer, and then no coroutine is
  /// needed. (TLS takes nothing this way.) Throws system_error.
  virtual std::size_t write_at_once(std::string_view bytes) = 0;
  /// Watches for the peer closing the connection (or the connection failing)
  /// while a response is under way, and then calls `on_close` once, with
  /// whether the peer sent bytes meanwhile (they are discarded). A plain
  /// callback rather than a coroutine raced against the response: it runs
  /// beside every answer. One watch at a time; end it with unwatch_close()
  /// before reading the next request.
  virtual void watch_close(std::function<void(bool client_spoke)> on_close) = 0;
  virtual void unwatch_close() = 0;

  /// The client's address and port ("127.0.0.1:5000"), asked of the socket once.
  virtual const std::string& peer() = 0;
  /// Stops reading (graceful shutdown: a connection idle between requests ends).
  virtual void stop_reading() = 0;
  /// Ends the connection (for TLS, with close_notify), within a deadline.
  virtual asio::awaitable<void> close() = 0;

  /// Hands the connection over to WebSocket: answers the upgrade request
  /// `req` with 101 (transport/websocket). The connection carries nothing
  /// else from then on but must outlive what this returns, and is closed
  /// after it. Throws system_error when the handshake fails.
  virtual asio::awaitable<std::unique_ptr<websocket::connection>> accept_websocket(
      const http_request& req, websocket::settings settings, transport_metadata metadata) = 0;

 protected:
  traffic traffic_;
};

/// Watches the connection for as long as it lives (see connection_io::watch_close).
class close_watch {
 public:
  close_watch(connection_io& io, std::function<void(bool client_spoke)> on_close) : io_(io) {
    io_.watch_close(std::move(on_close));
  }
  ~close_watch() { io_.unwatch_close(); }
  close_watch(const close_watch&) = delete;
  close_watch& operator=(const close_watch&) = delete;

 private:
  connection_io& io_;
};

/// The peer's address and port ("127.0.0.1:5000").
std::string peer_of(const asio::ip::tcp::socket& socket);

/// A plain TCP connection; every write must complete within `write_timeout`.
std::unique_ptr<connection_io> make_tcp_io(asio::ip::tcp::socket socket,
                                           std::chrono::milliseconds write_timeout);

/// A TLS connection; the handshake runs within `write_timeout`. Throws
/// system_error when the handshake fails.
asio::awaitable<std::unique_ptr<connection_io>> make_tls_io(asio::ip::tcp::socket socket,
                                                            asio::ssl::context& tls,
                                                            std::chrono::milliseconds write_timeout);

}  // namespace mcp::detail
