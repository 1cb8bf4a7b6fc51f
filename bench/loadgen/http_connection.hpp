#pragma once
// One HTTP/1.1 keep-alive connection that POSTs to an MCP endpoint and
// reads whole responses (chunked or not) with Beast's parser.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>

#include <string>
#include <string_view>

namespace loadgen {

namespace asio = boost::asio;

/// Where to POST: from a URL `http://HOST:PORT/PATH`.
struct http_target {
  asio::ip::tcp::endpoint endpoint;
  std::string host_header;  ///< HOST:PORT
  std::string path;
};
http_target parse_http_url(std::string_view url);  ///< throws std::invalid_argument

struct http_reply {
  unsigned status = 0;
  std::string content_type;
  std::string session_id;  ///< Mcp-Session-Id, when the server sent one
  std::string body;
};

/// What goes with a POST besides its body.
struct post_headers {
  std::string_view accept;
  std::string_view session_id;        ///< empty: none
  bool send_protocol_version = false;  ///< MCP-Protocol-Version (after initialize)
};

class http_connection {
 public:
  http_connection(asio::any_io_executor ex, const http_target& target);

  asio::awaitable<void> connect();
  /// Throws boost::system::system_error when the connection fails.
  asio::awaitable<http_reply> post(std::string_view body, const post_headers& headers);
  void close();

 private:
  const http_target& target_;
  asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  std::string request_;  // reused: one allocation for the whole run
};

}  // namespace loadgen
