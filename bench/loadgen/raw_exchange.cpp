#include "raw_exchange.hpp"

#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>

namespace loadgen {

namespace http = boost::beast::http;

raw_exchange::raw_exchange(asio::any_io_executor ex, const http_target& target, std::chrono::milliseconds deadline)
    : target_(target), socket_(ex), deadline_(ex) {
  parser_.body_limit(64 * 1024 * 1024);
  deadline_.expires_after(deadline);
  deadline_.async_wait([this, alive = alive_](boost::system::error_code ec) {
    if (!ec && *alive) drop();
  });
}

raw_exchange::~raw_exchange() { *alive_ = false; }

std::string raw_exchange::request_text(std::string_view method, const std::vector<std::string>& headers,
                                       std::string_view body) const {
  std::string text(method);
  text += ' ';
  text += target_.path;
  text += " HTTP/1.1\r\nHost: ";
  text += target_.host_header;
  text += "\r\n";
  for (const auto& header : headers) {
    text += header;
    text += "\r\n";
  }
  if (method != "GET") {
    text += "Content-Length: ";
    text += std::to_string(body.size());
    text += "\r\n";
  }
  text += "\r\n";
  text += body;
  return text;
}

asio::awaitable<void> raw_exchange::connect() {
  co_await socket_.async_connect(target_.endpoint, asio::use_awaitable);
  socket_.set_option(asio::ip::tcp::no_delay(true));
}

asio::awaitable<void> raw_exchange::write(std::string_view text, int pieces, std::chrono::milliseconds pause) {
  const std::size_t size = (text.size() + pieces - 1) / pieces;
  asio::steady_timer timer(socket_.get_executor());
  for (std::size_t at = 0; at < text.size(); at += size) {
    if (at != 0) {
      timer.expires_after(pause);
      co_await timer.async_wait(asio::use_awaitable);
    }
    const auto piece = asio::buffer(text.substr(at, size));
    co_await asio::async_write(socket_, piece, asio::use_awaitable);
  }
}

asio::awaitable<void> raw_exchange::read_head() {
  co_await http::async_read_header(socket_, buffer_, parser_, asio::use_awaitable);
}

asio::awaitable<bool> raw_exchange::read_some() {
  if (parser_.is_done()) co_return false;
  co_await http::async_read_some(socket_, buffer_, parser_, asio::use_awaitable);
  co_return !parser_.is_done();
}

asio::awaitable<void> raw_exchange::read_to_end() {
  co_await http::async_read(socket_, buffer_, parser_, asio::use_awaitable);
}

void raw_exchange::drop() {
  boost::system::error_code ignored;
  socket_.close(ignored);
}

}  // namespace loadgen
