// connection_io over a TCP socket and over TLS on one (transport/http/stream.hpp),
// and the server's reading of requests from it.

#include "connection_io.hpp"
#include "../../../detail/as_tuple_awaitable.hpp"

#include "response_text.hpp"
#include "../buffered_read.hpp"
#include "../stream.hpp"

#include <mcp/error.hpp>

#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/error.hpp>

namespace mcp::detail {
namespace {


template <class Stream>
class stream_io final : public connection_io {
 public:
  // The watchdog sleeps one write timeout at most: writes find it waking
  // early enough, and reads (whose timeout is longer) too.
  template <class... Args>
  stream_io(std::chrono::milliseconds write_timeout, Args&&... args)
      : stream_(write_timeout, std::forward<Args>(args)...), write_timeout_(write_timeout) {
    if constexpr (!timed_stream<Stream>::tls) {
      // Writes that cannot complete at once say so instead of blocking (write_bytes).
      boost::system::error_code ignored;
      stream_.socket().non_blocking(true, ignored);
    }
  }

  asio::awaitable<boost::system::error_code> read(beast::flat_buffer& buffer, request_reader& reader,
                                                  std::chrono::milliseconds timeout) override {
    stream_.arm(timeout);
    // (What is buffered is parsed first: transport/http/buffered_read.hpp.)
    boost::system::error_code ec;
    while (!parse_buffered(buffer, reader, ec, [&reader] { return reader.is_done(); })) {
      auto [read_ec, n] = co_await stream_.raw().async_read_some(read_room(buffer), as_tuple_awaitable);
      traffic_.bytes_in += n;
      if (read_ended(buffer, reader, n, read_ec, ec)) break;
    }
    ec = stream_.disarm(ec);
    if (ec == http::error::body_limit) reader.refuse_keep_alive();
    if (ec == asio::error::timed_out && reader.got_some()) co_await answer_request_timeout();
    co_return ec;
  }

  bool can_upgrade() const noexcept override { return true; }

 protected:
  std::size_t write_at_once(std::string_view bytes) override {
    if constexpr (timed_stream<Stream>::tls) {
      return 0;
    } else {
      // One system call, with no reactor operation and no trip through the
      // scheduler.
      boost::system::error_code ec;
      const auto taken = stream_.raw().write_some(asio::buffer(bytes.data(), bytes.size()), ec);
      traffic_.bytes_out += taken;
      if (ec && ec != asio::error::would_block && ec != asio::error::try_again)
        throw mcp::error(ec);
      return taken;
    }
  }

  asio::awaitable<void> write_bytes(std::string_view bytes) override {
    // Only what the socket does not take at once waits (under the write deadline).
    bytes.remove_prefix(write_at_once(bytes));
    if (bytes.empty()) co_return;
    stream_.arm(write_timeout_);
    auto [ec, written] =
        co_await asio::async_write(stream_.raw(), asio::buffer(bytes.data(), bytes.size()), as_tuple_awaitable);
    traffic_.bytes_out += written;
    if (const auto failure = stream_.disarm(ec)) throw mcp::error(failure);
  }

 public:
  // 408, and the connection closes after it. Best effort: a client gone
  // meanwhile is not an error here, the timeout is what read() reports.
  asio::awaitable<void> answer_request_timeout() {
    response_head head;
    head.status = http::status::request_timeout;
    head.keep_alive = false;
    head.content_length = 0;
    const auto text = head_text(head);
    traffic_.status = static_cast<unsigned>(head.status);
    try {
      co_await write_bytes(text);
    } catch (const boost::system::system_error&) {
    }
  }

  /// The TLS handshake, within the write timeout.
  asio::awaitable<void> handshake() {
    if (const auto failure = co_await stream_.handshake(tls_role::server, write_timeout_))
      throw mcp::error(failure);
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
    stream_.socket().async_wait(tcp_socket::wait_read, [this, watch = watch_](boost::system::error_code ec) {
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
    stream_.socket().cancel(ignored);  // no other operation runs while a response waits
  }

  const std::string& peer() override {
    if (peer_.empty()) peer_ = peer_of(stream_.socket());
    return peer_;
  }

  void stop_reading() override {
    boost::system::error_code ignored;
    stream_.socket().shutdown(tcp_socket::shutdown_receive, ignored);
  }

  asio::awaitable<void> close() override { co_await stream_.close(); }

  asio::awaitable<std::unique_ptr<websocket::connection>> accept_websocket(const http_request& req,
                                                                          websocket::settings settings,
                                                                          transport_metadata metadata) override {
    // The WebSocket stream reads and writes the stream in place; the
    // watchdog sleeps (no deadline is armed) and Beast keeps its own.
    co_return co_await websocket::accept(stream_.raw(), req, std::move(settings), std::move(metadata));
  }

 private:
  struct watch_state {
    std::function<void(bool)> on_close;
    bool active = false;
    bool client_spoke = false;
    char scratch[256];
  };

  // Reads (and drops) what the peer sends until the connection ends.
  void read_while_watching(const std::shared_ptr<watch_state>& watch) {
    stream_.raw().async_read_some(asio::buffer(watch->scratch),
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

  timed_stream<Stream> stream_;
  std::chrono::milliseconds write_timeout_;
  std::shared_ptr<watch_state> watch_;
  std::string peer_;
};

}  // namespace

bool connection_io::send_head(const response_head& head, std::string_view body, bool last) {
  // One buffer, one write: the head and what is ready of the body.
  pending_ = head_text(head, body.size() + 32);
  if (head.content_length) pending_ += body;
  else return send_part(body, last);
  return write_pending_at_once();
}

bool connection_io::send_part(std::string_view data, bool last) {
  if (!data.empty()) append_chunk(pending_, data);
  if (last) pending_ += last_chunk;
  return write_pending_at_once();
}

bool connection_io::write_pending_at_once() {
  // (Tried first: a response the socket takes whole needs no coroutine.)
  pending_.erase(0, write_at_once(pending_));
  return pending_.empty();
}

asio::awaitable<void> connection_io::finish() {
  if (pending_.empty()) co_return;
  const auto bytes = std::exchange(pending_, {});
  co_await write_bytes(bytes);
}

asio::awaitable<std::unique_ptr<websocket::connection>> response_channel::accept_websocket(const http_request&,
                                                                                       websocket::settings,
                                                                                       transport_metadata) {
  throw mcp::error(asio::error::operation_not_supported, "no WebSocket upgrade on this channel");
}

std::string peer_of(const asio::ip::tcp::socket& socket) {
  boost::system::error_code ignored;
  const auto endpoint = socket.remote_endpoint(ignored);
  return endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
}

std::unique_ptr<connection_io> make_tcp_io(asio::ip::tcp::socket socket,
                                           std::chrono::milliseconds write_timeout) {
  return std::make_unique<stream_io<tcp_socket>>(write_timeout, std::move(socket));
}

asio::awaitable<std::unique_ptr<connection_io>> make_tls_io(asio::ip::tcp::socket socket,
                                                            asio::ssl::context& tls,
                                                            std::chrono::milliseconds write_timeout) {
  auto io = std::make_unique<stream_io<tls_socket>>(write_timeout, std::move(socket), tls);
  co_await io->handshake();
  co_return io;
}

}  // namespace mcp::detail
