// connection_io over beast::tcp_stream and over beast::ssl_stream: the one
// place that knows which of the two a connection is.

#include "connection_io.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/serializer.hpp>
#include <boost/beast/http/status.hpp>
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

  asio::awaitable<void> write_bytes(std::string_view bytes) override {
    tcp().expires_after(write_timeout_);
    co_await asio::async_write(stream_, asio::buffer(bytes.data(), bytes.size()), asio::use_awaitable);
    tcp().expires_never();
  }

  void watch_close(std::function<void(bool)> on_close) override {
    // The state is shared with the pending operation, whose handler may run
    // after the watch (or this connection) is gone; reused when it is idle.
    if (!watch_ || watch_.use_count() > 1) watch_ = std::make_shared<watch_state>();
    watch_->on_close = std::move(on_close);
    watch_->active = true;
    watch_->client_spoke = false;
    // Waiting for readability first spares a read that would be tried at
    // once, and fail, on every call.
    tcp().socket().async_wait(asio::ip::tcp::socket::wait_read,
                              [this, watch = watch_](boost::system::error_code ec) {
                                if (!watch->active) return;
                                if (ec) return closed(*watch);
                                read_while_watching(watch);
                              });
  }

  void unwatch_close() override {
    if (!watch_ || !watch_->active) return;
    watch_->active = false;
    watch_->on_close = nullptr;
    boost::system::error_code ignored;
    tcp().socket().cancel(ignored);  // no other operation runs while a response waits
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

  struct watch_state {
    std::function<void(bool)> on_close;
    bool active = false;
    bool client_spoke = false;
    char scratch[256];
  };

  // Reads (and drops) what the peer sends until the connection ends.
  void read_while_watching(const std::shared_ptr<watch_state>& watch) {
    stream_.async_read_some(asio::buffer(watch->scratch),
                            [this, watch](boost::system::error_code ec, std::size_t) {
                              if (!watch->active) return;
                              if (ec) return closed(*watch);
                              watch->client_spoke = true;
                              read_while_watching(watch);
                            });
  }

  static void closed(watch_state& watch) {
    watch.active = false;
    auto on_close = std::move(watch.on_close);
    on_close(watch.client_spoke);
  }

  Stream stream_;
  std::chrono::seconds write_timeout_;
  std::shared_ptr<watch_state> watch_;
};

}  // namespace

std::string head_text(const response_head& head) {
  const bool http10 = head.version == 10;
  std::string text = http10 ? "HTTP/1.0 " : "HTTP/1.1 ";
  text += std::to_string(static_cast<unsigned>(head.status));
  text += ' ';
  text += http::obsolete_reason(head.status);
  text += "\r\n";
  const auto field = [&text](std::string_view name, std::string_view value) {
    text += name;
    text += ": ";
    text += value;
    text += "\r\n";
  };
  if (!head.content_type.empty()) field("Content-Type", head.content_type);
  if (head.no_cache) field("Cache-Control", "no-cache");
  if (!head.session_id.empty()) field("Mcp-Session-Id", head.session_id);
  if (head.content_length)
    field("Content-Length", std::to_string(*head.content_length));
  else
    field("Transfer-Encoding", "chunked");
  // HTTP/1.1 keeps the connection unless told; HTTP/1.0 closes it unless told.
  if (!head.keep_alive && !http10) field("Connection", "close");
  if (head.keep_alive && http10) field("Connection", "keep-alive");
  text += "\r\n";
  return text;
}

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
