#pragma once
// One HTTP/1.1 connection of the client, over plain TCP or TLS (SNI, the
// server's certificate and host name verified as the TLS context says).
// Every operation has a deadline; close() ends whatever is pending.

#include "url.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <chrono>
#include <memory>
#include <string>

namespace mcp::detail::http_client {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

using request_message = http::request<http::string_body>;
using response_parser = http::response_parser<http::buffer_body>;

class connection {
 public:
  /// `tls` null: plain TCP.
  connection(asio::any_io_executor ex, asio::ssl::context* tls);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  /// Resolves, connects and (TLS) handshakes within `timeout`. Throws
  /// http_error naming the step that failed.
  asio::awaitable<void> open(const http_endpoint& ep, std::chrono::milliseconds timeout);

  // These report failures as values: the caller decides (a keep-alive
  // connection the server closed meanwhile is replaced, not an error).
  asio::awaitable<boost::system::error_code> write(request_message& req, std::chrono::milliseconds timeout);
  asio::awaitable<boost::system::error_code> read_head(response_parser& parser, std::chrono::milliseconds timeout);
  /// Reads some of the body into the parser's buffer.
  asio::awaitable<boost::system::error_code> read_some(response_parser& parser, std::chrono::milliseconds timeout);

  /// Closes the socket; pending operations complete with an error. Never throws.
  void close() noexcept;
  bool is_open() const noexcept { return !closed_; }
  /// An idle keep-alive connection the server has not closed (no EOF, no
  /// stray bytes waiting) and that holds nothing unread.
  bool still_usable() noexcept;

  const std::string& origin() const noexcept { return origin_; }
  bool reused = false;
  std::chrono::steady_clock::time_point idle_since{};

 private:
  beast::tcp_stream& tcp() noexcept;

  std::unique_ptr<beast::tcp_stream> plain_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  std::string origin_;
  bool closed_ = false;
};

}  // namespace mcp::detail::http_client
