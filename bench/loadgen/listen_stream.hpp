#pragma once
// One subscriptions/listen stream (2026-07-28) on a keep-alive connection of
// its own: the POST, its SSE head and acknowledgement, then the
// notifications as they come, each checked (notifications/tools/list_changed
// tagged with the stream's subscription id) and the time of the read that
// brought it recorded.

#include "http_connection.hpp"
#include "load_run.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace loadgen {

class listen_stream {
 public:
  listen_stream(asio::any_io_executor ex, const http_target& target, std::int64_t id);

  /// Connects, POSTs subscriptions/listen and reads up to its
  /// acknowledgement (a priming event before it is allowed). Returns what is
  /// wrong, empty when the stream is open and acknowledged; throws
  /// boost::system::system_error when the connection fails.
  asio::awaitable<std::string> open();
  /// Reads notifications until the stream ends; after each good one,
  /// `heard(count)` with the count heard so far. A wrong one, or an end that
  /// close() did not ask for, sets problem().
  asio::awaitable<void> listen(std::function<void(std::size_t)> heard);
  void close();

  std::int64_t id() const { return id_; }
  const std::vector<clock::time_point>& arrivals() const { return arrivals_; }
  const std::string& problem() const { return problem_; }

 private:
  /// The data of the next event that carries some; std::nullopt when the
  /// response ended.
  asio::awaitable<std::optional<std::string>> next_message();

  const http_target& target_;
  std::int64_t id_;
  asio::ip::tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::response_parser<boost::beast::http::string_body> parser_;
  std::size_t events_taken_ = 0;       // of the body kept (read but not yet cleared)
  std::vector<std::string> pending_;   // messages read and not yet handed out
  std::size_t next_pending_ = 0;
  clock::time_point last_read_at_;
  std::vector<clock::time_point> arrivals_;
  std::string problem_;
  bool closing_ = false;
};

}  // namespace loadgen
