#pragma once
// The server's side of one HTTP connection, plain TCP or TLS
// (transport/http/stream.hpp), behind one small interface so that the code
// above is written and compiled once for both: reading requests, writing
// responses as HTTP/1.1, watching for the client going away.

#include "http_request.hpp"
#include "response_channel.hpp"

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

/// A connection of the built-in listener: reads requests, and writes their
/// responses as HTTP/1.1 (a Content-Length body, or a chunked SSE body).
class connection_io : public response_channel {
 public:
  /// Reads one request within `timeout`; the error says why not
  /// (end_of_stream, body_limit, header_limit, timeout...). A request begun
  /// but not whole within `timeout` (headers trickled in, a body that
  /// stalls) is answered 408 with `Connection: close` here before the
  /// timeout is returned (RFC 9110, 15.5.9); a connection that sent nothing
  /// is not. A request whose body is over the limit is not kept alive.
  virtual asio::awaitable<boost::system::error_code> read(beast::flat_buffer& buffer,
                                                          request_reader& reader,
                                                          std::chrono::milliseconds timeout) = 0;
  /// Stops reading (graceful shutdown: a connection idle between requests ends).
  virtual void stop_reading() = 0;

  bool send_head(const response_head& head, std::string_view body, bool last) final;
  bool send_part(std::string_view data, bool last) final;
  asio::awaitable<void> finish() final;

 protected:
  /// Writes what the connection takes without waiting, and says how much.
  /// (TLS takes nothing this way.) Throws system_error.
  virtual std::size_t write_at_once(std::string_view bytes) = 0;
  /// Writes bytes, within the write deadline. Throws system_error (also on the deadline).
  virtual asio::awaitable<void> write_bytes(std::string_view bytes) = 0;

 private:
  // Writes what it can of `pending_` now; true when nothing is left.
  bool write_pending_at_once();

  std::string pending_;  // what the connection has not taken yet
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
