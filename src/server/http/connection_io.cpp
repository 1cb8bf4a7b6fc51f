// connection_io over beast::tcp_stream and over beast::ssl_stream: the one
// place that knows which of the two a connection is.

#include "connection_io.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace mcp::detail {
namespace {

constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);
constexpr std::chrono::seconds tls_shutdown_timeout{2};

beast::tcp_stream& tcp_layer(beast::tcp_stream& stream) { return stream; }
beast::tcp_stream& tcp_layer(beast::ssl_stream<beast::tcp_stream>& stream) { return stream.next_layer(); }

template <class Stream>
class stream_io final : public connection_io {
 public:
  template <class... Args>
  stream_io(std::chrono::seconds write_timeout, Args&&... args)
      : stream_(std::forward<Args>(args)...), write_timeout_(write_timeout) {}

  Stream& stream() { return stream_; }

  asio::awaitable<boost::system::error_code> read(beast::flat_buffer& buffer, request_parser& parser,
                                                  std::chrono::seconds timeout) override {
    tcp().expires_after(timeout);
    auto [ec, bytes] = co_await http::async_read(stream_, buffer, parser, as_tuple_awaitable);
    tcp().expires_never();
    co_return ec;
  }

  asio::awaitable<void> write(http::message_generator message) override {
    tcp().expires_after(write_timeout_);
    co_await beast::async_write(stream_, std::move(message), asio::use_awaitable);
    tcp().expires_never();
  }

  asio::awaitable<void> write_header(http::response<http::empty_body>& head) override {
    http::response_serializer<http::empty_body> serializer(head);
    tcp().expires_after(write_timeout_);
    co_await http::async_write_header(stream_, serializer, asio::use_awaitable);
    tcp().expires_never();
  }

  asio::awaitable<void> write_bytes(std::string_view bytes) override {
    tcp().expires_after(write_timeout_);
    co_await asio::async_write(stream_, asio::buffer(bytes.data(), bytes.size()), asio::use_awaitable);
    tcp().expires_never();
  }

  asio::awaitable<bool> wait_closed() override {
    // Waiting for readability first spares the read that would be tried at
    // once, and fail, on every call (this runs beside every answer).
    auto [waited] = co_await tcp().socket().async_wait(asio::ip::tcp::socket::wait_read, as_tuple_awaitable);
    if (waited) co_return false;
    bool consumed = false;
    char scratch[256];
    for (;;) {
      auto [ec, n] = co_await stream_.async_read_some(asio::buffer(scratch), as_tuple_awaitable);
      if (ec) co_return consumed;
      consumed = true;
    }
  }

  asio::ip::tcp::endpoint remote_endpoint() const override {
    boost::system::error_code ignored;
    return const_cast<stream_io*>(this)->tcp().socket().remote_endpoint(ignored);
  }

  void stop_reading() override {
    boost::system::error_code ignored;
    tcp().socket().shutdown(asio::ip::tcp::socket::shutdown_receive, ignored);
  }

  asio::awaitable<void> close() override {
    if constexpr (std::is_same_v<Stream, beast::ssl_stream<beast::tcp_stream>>) {
      tcp().expires_after(tls_shutdown_timeout);
      co_await stream_.async_shutdown(as_tuple_awaitable);
    }
    boost::system::error_code ignored;
    tcp().socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    tcp().socket().close(ignored);
  }

 private:
  beast::tcp_stream& tcp() { return tcp_layer(stream_); }

  Stream stream_;
  std::chrono::seconds write_timeout_;
};

}  // namespace

std::unique_ptr<connection_io> make_tcp_io(asio::ip::tcp::socket socket,
                                           std::chrono::seconds write_timeout) {
  return std::make_unique<stream_io<beast::tcp_stream>>(write_timeout, std::move(socket));
}

asio::awaitable<std::unique_ptr<connection_io>> make_tls_io(asio::ip::tcp::socket socket,
                                                            asio::ssl::context& tls,
                                                            std::chrono::seconds write_timeout) {
  using tls_stream = beast::ssl_stream<beast::tcp_stream>;
  auto io = std::make_unique<stream_io<tls_stream>>(write_timeout, std::move(socket), tls);
  tcp_layer(io->stream()).expires_after(write_timeout);
  co_await io->stream().async_handshake(asio::ssl::stream_base::server, asio::use_awaitable);
  tcp_layer(io->stream()).expires_never();
  co_return io;
}

}  // namespace mcp::detail
