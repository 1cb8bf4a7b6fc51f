#pragma once
// One HTTP/1.1 exchange on a connection of its own, for the soak's requests
// that the keep-alive http_connection cannot make: any method and headers, a
// request written in pieces with pauses (a slow client), a response read as
// it comes (an SSE stream read event by event, or slowly), and a connection
// dropped mid-response. Every wait is bounded by the exchange's deadline,
// after which the socket is closed and the pending operation fails.

#include "http_connection.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace loadgen {

class raw_exchange {
 public:
  raw_exchange(asio::any_io_executor ex, const http_target& target, std::chrono::milliseconds deadline);
  ~raw_exchange();

  /// The request text for `method` with `headers` ("Name: value" each) and `body`.
  std::string request_text(std::string_view method, const std::vector<std::string>& headers,
                           std::string_view body) const;

  asio::awaitable<void> connect();
  /// Writes `text` in `pieces` parts, `pause` apart.
  asio::awaitable<void> write(std::string_view text, int pieces = 1,
                              std::chrono::milliseconds pause = std::chrono::milliseconds(0));
  /// Reads until the response head is in.
  asio::awaitable<void> read_head();
  /// Reads more of the body (what one read brings); false once the response
  /// is complete.
  asio::awaitable<bool> read_some();
  /// Reads the whole response.
  asio::awaitable<void> read_to_end();

  unsigned status() const { return parser_.get().result_int(); }
  std::string header(std::string_view name) const { return std::string(parser_.get()[name]); }
  const std::string& body() const { return parser_.get().body(); }
  bool complete() const { return parser_.is_done(); }
  /// Drops the connection (a client that goes away mid-response).
  void drop();

 private:
  const http_target& target_;
  asio::ip::tcp::socket socket_;
  asio::steady_timer deadline_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);  // (the deadline's handler may outlive us)
  boost::beast::flat_buffer buffer_;
  boost::beast::http::response_parser<boost::beast::http::string_body> parser_;
};

}  // namespace loadgen
