// A WebSocket connection as a message_transport (websocket_connection.hpp),
// on Beast's websocket::stream over a reference to a plain or TLS stream:
// the server's comes from its HTTP connection (which it upgrades in place),
// the client's is one it owns. The one translation unit with Beast's
// websocket code in it, instantiated for the three stream types (the third:
// a connection an application's own server handed over), without
// permessage-deflate (nothing to compress in a few hundred bytes of JSON, and
// less code).

#include "websocket_connection.hpp"
#include "../../detail/as_tuple_awaitable.hpp"

#include "../http/server/http_request.hpp"
#include "../http/stream.hpp"
#include "handed_stream.hpp"

#include <mcp/error.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/websocket/rfc6455.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <boost/beast/websocket/stream.hpp>

#include <algorithm>
#include <deque>

namespace mcp::detail::websocket {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace ws = beast::websocket;
using tcp = asio::ip::tcp;
using clock = std::chrono::steady_clock;

constexpr std::size_t read_piece = 64 * 1024;  // read of a message at most at once

// An event: a timer that never expires; notify() wakes whoever waits.
class event {
 public:
  explicit event(const asio::any_io_executor& ex) : timer_(ex, asio::steady_timer::time_point::max()) {}
  void notify() { timer_.cancel(); }
  asio::awaitable<void> wait() { co_await timer_.async_wait(as_tuple_awaitable); }
  // Waits at most until `deadline`.
  asio::awaitable<void> wait_until(clock::time_point deadline) {
    using namespace asio::experimental::awaitable_operators;
    asio::steady_timer limit(timer_.get_executor(), deadline);
    co_await (timer_.async_wait(as_tuple_awaitable) || limit.async_wait(as_tuple_awaitable));
  }

 private:
  asio::steady_timer timer_;
};

std::string close_text(const ws::close_reason& why) {
  std::string text = std::to_string(why.code);
  if (!why.reason.empty()) text += " (" + std::string(why.reason.data(), why.reason.size()) + ")";
  return text;
}

void close_lowest(tcp::socket& socket) noexcept { close_socket(socket); }
void close_lowest(tls_socket& stream) noexcept { close_socket(stream.next_layer()); }
void close_lowest(handed_stream& stream) noexcept { stream.stream().close(); }

// Everything a connection is, shared by the transport object and its reader
// coroutine: the reader outlives a transport destroyed while it reads (it is
// woken at once, the socket closed).
template <class Stream>
struct core {
  core(std::shared_ptr<asio::ssl::context> context, std::unique_ptr<timed_stream<Stream>> own, Stream& stream,
       settings s, transport_metadata m)
      : tls(std::move(context)),
        owned(std::move(own)),
        ws(owned ? owned->raw() : stream),
        config(std::move(s)),
        metadata(std::make_shared<const transport_metadata>(std::move(m))),
        readable(ws.get_executor()),
        room(ws.get_executor()),
        done(ws.get_executor()) {
    // The size bound is kept by read_loop, not by Beast: Beast fails a frame
    // whose header announces too much at once, sends 1009, and then (1.81)
    // closes the socket after reading one more piece, so a peer still
    // sending gets a reset and often never sees the 1009. read_loop closes
    // with 1009 itself, and Beast's closing handshake then reads and drops
    // the rest (within the handshake timeout), so the peer sees the code.
    ws.read_message_max(0);  // (no limit of Beast's own)
    ws.auto_fragment(false);  // one message, one frame
    ws.text(true);
    set_timeouts(config.handshake_timeout);
  }

  // The opening handshake gets `handshake`; closing ones the configured one.
  void set_timeouts(std::chrono::milliseconds handshake) {
    ws::stream_base::timeout t{};
    t.handshake_timeout = handshake;
    // Beast pings after half the idle timeout without a frame from the
    // peer and gives up after the whole: a ping after ping_interval, then
    // as long again for an answer.
    t.idle_timeout = 2 * config.ping_interval;
    t.keep_alive_pings = true;
    ws.set_option(t);
  }

  // Ends the connection now: the socket closes, what is pending fails.
  void kill() noexcept {
    killed = true;
    close_lowest(ws.next_layer());
  }

  bool may_queue() const noexcept {
    return frames.size() < config.read_ahead_frames && queued_bytes < config.read_ahead_bytes;
  }

  // Why reading ended, as read_frame() reports it.
  void ended_with(boost::system::error_code ec) {
    if (ec == ws::error::closed) {
      const auto& why = ws.reason();
      peer_closed = peer_close{static_cast<std::uint16_t>(why.code),
                               std::string(why.reason.data(), why.reason.size())};
      // Our own close answered, or the peer's normal end (a close frame
      // without a code, as browsers' close() sends, is one): the input ends in order.
      if (close_started || why.code == ws::close_code::normal || why.code == ws::close_code::going_away ||
          why.code == ws::close_code::none)
        return;
      failure = make_error_code(asio::error::connection_reset);
      failure_what = "the peer closed the WebSocket connection with code " + close_text(why);
      return;
    }
    if (killed || close_started) return;  // we ended it
    failure = ec;
    if (ec == beast::error::timeout) {
      failure = make_error_code(asio::error::timed_out);
      failure_what = "the WebSocket peer did not answer a ping within " +
                     std::to_string(config.ping_interval.count()) + " ms";
    } else {
      failure_what = "WebSocket read: " + ec.message();
    }
  }

  std::shared_ptr<asio::ssl::context> tls;      // the client's TLS context, for as long as its stream
  std::unique_ptr<timed_stream<Stream>> owned;  // the client's stream; destroyed after the websocket
  ws::stream<Stream&, false> ws;
  settings config;
  std::shared_ptr<const transport_metadata> metadata;
  std::deque<std::string> frames;  // read ahead
  std::size_t queued_bytes = 0;
  event readable;  // a frame came, reading ended, or reading stopped
  event room;      // read_frame() took a frame, or reading stopped
  event done;      // the reader ended
  bool stopped = false;        // stop_reading() or close()
  bool reader_done = false;
  bool close_started = false;  // our close frame is (being) sent
  bool killed = false;
  bool write_failed = false;
  ws::close_reason our_close{ws::close_code::normal};
  std::optional<peer_close> peer_closed;
  boost::system::error_code failure;  // set when reading ended abnormally
  std::string failure_what;
};

template <class Stream>
asio::awaitable<void> close_with(std::shared_ptr<core<Stream>> c, ws::close_reason why) {
  if (c->close_started || c->killed) co_return;
  c->close_started = true;
  if (c->write_failed || !c->ws.is_open()) {
    c->kill();
    co_return;
  }
  // Bounded by the handshake timeout: Beast closes the socket when the peer
  // does not answer in time.
  auto [ec] = co_await c->ws.async_close(why, as_tuple_awaitable);
  if (ec && ec != ws::error::closed) c->kill();
}

template <class Stream>
asio::awaitable<void> read_loop(std::shared_ptr<core<Stream>> c) {
  beast::flat_buffer buffer;
  for (;;) {
    // A full queue pauses reading, unless the input was stopped (then what
    // comes is dropped, and reading goes on for the pongs and the close).
    while (!c->stopped && !c->close_started && !c->may_queue()) co_await c->room.wait();
    // One message, read a piece at a time so that its size is checked as it grows.
    boost::system::error_code ec;
    bool too_big = false;
    do {
      auto [piece_ec, n] = co_await c->ws.async_read_some(buffer, read_piece, as_tuple_awaitable);
      ec = piece_ec;
      too_big = !ec && buffer.size() > c->config.max_message_size;
    } while (!ec && !too_big && !c->ws.is_message_done());
    if (ec) {
      c->ended_with(ec);
      break;
    }
    if (too_big) {
      c->failure = make_error_code(boost::system::errc::message_size);
      c->failure_what = "a WebSocket message over " + std::to_string(c->config.max_message_size) +
                        " bytes (closed with code 1009)";
      ws::close_reason why(ws::close_code::too_big, "message too big");
      co_await close_with(c, std::move(why));
      break;
    }
    if (!c->ws.got_text()) {
      c->failure = make_error_code(boost::system::errc::bad_message);
      c->failure_what = "a binary WebSocket message (MCP messages are text; closed with code 1003)";
      ws::close_reason why(ws::close_code::unknown_data, "MCP messages are text");
      co_await close_with(c, std::move(why));
      break;
    }
    if (!c->stopped) {
      c->queued_bytes += buffer.size();
      c->frames.push_back(beast::buffers_to_string(buffer.data()));
      c->readable.notify();
    }
    buffer.clear();
  }
  c->reader_done = true;
  c->readable.notify();
  c->done.notify();
}

template <class Stream>
class ws_connection final : public connection {
 public:
  explicit ws_connection(std::shared_ptr<core<Stream>> c) : c_(std::move(c)) {}
  ~ws_connection() override {
    // Not closed in order: end it now; the reader, woken, ends on its own.
    if (!c_->reader_done) c_->kill();
  }

  asio::any_io_executor get_executor() override { return c_->ws.get_executor(); }

  asio::awaitable<std::optional<inbound_frame>> read_frame() override {
    auto c = c_;  // (the transport may go while this waits)
    for (;;) {
      if (c->stopped) co_return std::nullopt;
      if (!c->frames.empty()) {
        inbound_frame frame;
        frame.text = std::move(c->frames.front());
        c->frames.pop_front();
        c->queued_bytes -= frame.text.size();
        c->room.notify();
        co_return frame;
      }
      if (c->reader_done) {
        if (c->failure) throw mcp::error(c->failure, c->failure_what);
        co_return std::nullopt;
      }
      co_await c->readable.wait();
      const auto state = co_await asio::this_coro::cancellation_state;
      if (state.cancelled() != asio::cancellation_type::none)
        throw mcp::error(asio::error::operation_aborted, "WebSocket read");
    }
  }

  asio::awaitable<void> write_frame(std::string frame) override {
    auto c = c_;
    if (c->close_started || c->killed || c->write_failed || !c->ws.is_open())
      throw mcp::error(asio::error::connection_aborted, "WebSocket write: the connection is closed");
    auto [ec, n] = co_await c->ws.async_write(asio::buffer(frame), as_tuple_awaitable);
    if (ec) {
      // (A write cancelled from outside, on its deadline, leaves Beast's
      // stream unusable: close() then ends it without a handshake.)
      c->write_failed = true;
      throw mcp::error(ec, "WebSocket write");
    }
  }

  asio::awaitable<void> close() override {
    auto c = c_;
    stop_reading();
    co_await close_with(c, c->our_close);
    // The reader ends with the closing handshake, or at once when the socket
    // closed; Beast's own deadline ends a handshake the peer leaves
    // unanswered, and this one whatever else might hold it.
    const auto deadline = clock::now() + c->config.handshake_timeout + std::chrono::seconds(1);
    while (!c->reader_done && clock::now() < deadline) co_await c->done.wait_until(deadline);
    if (c->reader_done) co_return;
    c->kill();  // (a closed socket fails the read at once)
    const auto last = clock::now() + std::chrono::seconds(5);
    while (!c->reader_done && clock::now() < last) co_await c->done.wait_until(last);
  }

  transport_metadata metadata() const override { return *c_->metadata; }
  std::shared_ptr<const transport_metadata> shared_metadata() const override { return c_->metadata; }

  void stop_reading() override {
    if (c_->stopped) return;
    c_->stopped = true;
    c_->frames.clear();
    c_->queued_bytes = 0;
    c_->readable.notify();
    c_->room.notify();
  }

  void set_close_code(close_code code, std::string reason) override {
    c_->our_close = ws::close_reason(static_cast<ws::close_code>(static_cast<std::uint16_t>(code)), reason);
  }

  void close_now() noexcept override {
    stop_reading();
    c_->kill();
  }

  std::optional<peer_close> closed_by_peer() const override { return c_->peer_closed; }

 private:
  std::shared_ptr<core<Stream>> c_;
};

template <class Stream>
std::unique_ptr<connection> start(std::shared_ptr<core<Stream>> c) {
  c->set_timeouts(c->config.handshake_timeout);  // from now on for the closing handshake
  auto ex = c->ws.get_executor();
  asio::co_spawn(ex, read_loop(c), asio::detached);
  return std::make_unique<ws_connection<Stream>>(std::move(c));
}

template <class Stream>
asio::awaitable<std::unique_ptr<connection>> accept_on(Stream& stream, const http_request& req, settings s,
                                                      transport_metadata metadata) {
  http::request<http::empty_body> upgrade{req.method(), req.target(), req.version()};
  for (const auto& [name, value] : req.headers()) upgrade.insert(name, value);
  auto c = std::make_shared<core<Stream>>(nullptr, nullptr, stream, std::move(s), std::move(metadata));
  c->ws.set_option(ws::stream_base::decorator([protocol = c->config.subprotocol](ws::response_type& res) {
    res.set(http::field::sec_websocket_protocol, protocol);
    res.set(http::field::server, "caduceus");
  }));
  auto [ec] = co_await c->ws.async_accept(upgrade, as_tuple_awaitable);
  if (ec) throw mcp::error(ec, "WebSocket opening handshake");
  co_return start(std::move(c));
}

// Name resolution cannot be cancelled per operation: a timer cancels the
// resolver instead.
asio::awaitable<tcp::resolver::results_type> resolve(asio::any_io_executor ex, const client_target& t,
                                                     clock::time_point deadline) {
  auto resolver = std::make_shared<tcp::resolver>(ex);
  asio::steady_timer timer(ex, deadline);
  timer.async_wait([weak = std::weak_ptr<tcp::resolver>(resolver)](boost::system::error_code ec) {
    if (ec) return;
    if (auto r = weak.lock()) r->cancel();
  });
  auto [ec, results] = co_await resolver->async_resolve(t.host, t.port, as_tuple_awaitable);
  const bool timed_out = ec == asio::error::operation_aborted && clock::now() >= deadline;
  timer.cancel();
  if (timed_out) throw mcp::error(asio::error::timed_out, "resolve " + t.host);
  if (ec) throw mcp::error(ec, "resolve " + t.host);
  co_return results;
}

std::chrono::milliseconds remaining(clock::time_point deadline) {
  return std::max(std::chrono::milliseconds(1),
                  std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()));
}

template <class Stream>
asio::awaitable<std::unique_ptr<connection>> connect_on(asio::any_io_executor ex, const client_target& t,
                                                       std::shared_ptr<asio::ssl::context> tls,
                                                       std::unique_ptr<timed_stream<Stream>> stream, settings s,
                                                       refusal& refused) {
  const auto deadline = clock::now() + t.connect_timeout;
  const auto results = co_await resolve(ex, t, deadline);
  auto& socket = stream->socket();
  boost::system::error_code ec = asio::error::not_found;
  stream->arm(remaining(deadline));
  for (const auto& entry : results) {
    boost::system::error_code ignored;
    socket.close(ignored);  // after a failed attempt; connecting opens it again
    auto [attempt] = co_await socket.async_connect(entry.endpoint(), as_tuple_awaitable);
    ec = attempt;
    if (!ec || stream->timed_out()) break;
  }
  ec = stream->disarm(ec);
  if (ec) throw mcp::error(ec, "connect to " + t.host_header);
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  if (!stream->expect_server(t.host))
    throw mcp::error(asio::error::invalid_argument, "TLS: cannot set the server name " + t.host);
  if (const auto hs = co_await stream->handshake(tls_role::client, remaining(deadline)))
    throw mcp::error(hs, "TLS handshake with " + t.host_header);

  transport_metadata metadata;
  metadata.kind = "websocket";
  {
    boost::system::error_code no_peer;
    const auto endpoint = socket.remote_endpoint(no_peer);
    if (!no_peer) metadata.peer = endpoint.address().to_string() + ":" + std::to_string(endpoint.port());
  }
  Stream& raw = stream->raw();
  auto c = std::make_shared<core<Stream>>(std::move(tls), std::move(stream), raw, std::move(s), std::move(metadata));
  c->set_timeouts(remaining(deadline));
  c->ws.set_option(ws::stream_base::decorator([protocol = c->config.subprotocol, headers = t.headers](ws::request_type& req) {
    req.set(http::field::user_agent, "caduceus");
    for (const auto& [name, value] : headers) req.set(name, value);
    req.set(http::field::sec_websocket_protocol, protocol);
  }));
  ws::response_type res;
  auto [hs] = co_await c->ws.async_handshake(res, t.host_header, t.target, as_tuple_awaitable);
  if (hs == ws::error::upgrade_declined || (!hs && res[http::field::sec_websocket_protocol] != c->config.subprotocol)) {
    refused.status = res.result_int();
    for (const auto& field : res)
      if (field.name() == http::field::www_authenticate)
        refused.www_authenticate.emplace_back(field.value().data(), field.value().size());
    const auto nonce = res["DPoP-Nonce"];
    refused.dpop_nonce.assign(nonce.data(), nonce.size());
    refused.body = res.body();
    // (Upgraded but not to MCP: the connection is failed, RFC 6455 section
    // 4.1, at once rather than waiting for a closing handshake.)
    c->kill();
    co_return nullptr;
  }
  if (hs == beast::error::timeout) throw mcp::error(asio::error::timed_out, "WebSocket handshake with " + t.host_header);
  if (hs) throw mcp::error(hs, "WebSocket handshake with " + t.host_header);
  co_return start(std::move(c));
}

}  // namespace

asio::awaitable<std::unique_ptr<connection>> accept(tcp::socket& stream, const http_request& req, settings s,
                                                   transport_metadata metadata) {
  return accept_on(stream, req, std::move(s), std::move(metadata));
}

asio::awaitable<std::unique_ptr<connection>> accept(asio::ssl::stream<tcp::socket>& stream, const http_request& req,
                                                   settings s, transport_metadata metadata) {
  return accept_on(stream, req, std::move(s), std::move(metadata));
}

asio::awaitable<std::unique_ptr<connection>> accept(handed_stream& stream, const http_request& req, settings s,
                                                   transport_metadata metadata) {
  return accept_on(stream, req, std::move(s), std::move(metadata));
}

asio::awaitable<std::unique_ptr<connection>> connect(asio::any_io_executor ex, const client_target& target,
                                                    std::shared_ptr<asio::ssl::context> tls, settings s,
                                                    refusal& refused) {
  const auto sleep = std::max(target.connect_timeout, s.handshake_timeout);
  if (tls) {
    auto stream = std::make_unique<timed_stream<tls_socket>>(sleep, ex, *tls);
    return connect_on<tls_socket>(ex, target, std::move(tls), std::move(stream), std::move(s), refused);
  }
  return connect_on<tcp_socket>(ex, target, nullptr, std::make_unique<timed_stream<tcp_socket>>(sleep, ex),
                                std::move(s), refused);
}

}  // namespace mcp::detail::websocket
