#pragma once
// One HTTP/1.1 connection of the client, over plain TCP or TLS (SNI, the
// server's certificate and host name verified as the TLS context says): an
// interface here, one implementation per stream type on
// transport/http/stream.hpp, so that neither this header nor its users see
// TLS. Every operation has a deadline; close() ends whatever is pending.

#include "url.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace boost::asio::ssl {
class context;
}

namespace mcp::detail::http_client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using request_message = http::request<http::string_body>;
using response_parser = http::response_parser<http::buffer_body>;

class connection {
 public:
  virtual ~connection() = default;

  /// Resolves, connects and (TLS) handshakes within `timeout`. Throws
  /// http_error naming the step that failed.
  virtual asio::awaitable<void> open(const http_endpoint& ep, std::chrono::milliseconds timeout) = 0;

  // These report failures as values (a deadline that passed as
  // asio::error::timed_out): the caller decides (a keep-alive connection the
  // server closed meanwhile is replaced, not an error).
  virtual asio::awaitable<boost::system::error_code> write(request_message& req,
                                                           std::chrono::milliseconds timeout) = 0;
  virtual asio::awaitable<boost::system::error_code> read_head(response_parser& parser,
                                                               std::chrono::milliseconds timeout) = 0;
  /// Reads some of the body into the parser's buffer.
  virtual asio::awaitable<boost::system::error_code> read_some(response_parser& parser,
                                                               std::chrono::milliseconds timeout) = 0;

  /// Closes the socket; pending operations complete with an error. Never throws.
  virtual void close() noexcept = 0;
  virtual bool is_open() const noexcept = 0;
  /// An idle keep-alive connection the server has not closed (no EOF, no
  /// stray bytes waiting) and that holds nothing unread.
  virtual bool still_usable() noexcept = 0;

  virtual const std::string& origin() const noexcept = 0;
  bool reused = false;
  std::chrono::steady_clock::time_point idle_since{};
};

/// A connection over TLS with `tls`, over plain TCP when it is null. Its
/// deadlines are kept by a timer that wakes at least every `usual_timeout`.
/// With `public_only` it connects to public addresses only (peer_address.hpp):
/// open() throws http_error when the host resolves to none.
std::unique_ptr<connection> make_connection(asio::any_io_executor ex, asio::ssl::context* tls,
                                            std::chrono::milliseconds usual_timeout, bool public_only = false);

}  // namespace mcp::detail::http_client
