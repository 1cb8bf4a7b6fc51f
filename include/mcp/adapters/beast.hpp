#pragma once
// Serves an mcp::http_endpoint from an application's own Boost.Beast server
// (docs/embedding.md): the application accepts its connections and reads
// each request on its own stream, plain or TLS, routes what is its own, and
// hands the rest (the paths of endpoint.routes()) here, which writes the
// response on the same stream: a whole body, or an SSE body chunk by chunk
// as the endpoint writes it. With http_endpoint_options::websocket, a
// WebSocket upgrade is served on the stream too: the endpoint answers 101
// and carries the MCP session over it until it ends. Link caduceus::beast.
//
// Threads: the response is written from the stream's executor (its strand,
// if it has one); the endpoint runs on its own. A client that goes away is
// noticed at the next write to it (an event, or a keep-alive comment every
// keep_alive_interval), and its stream is then let go.

#include <mcp/server/http_endpoint.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace mcp::adapters {

namespace beast_detail {

namespace asio = boost::asio;
namespace http = boost::beast::http;

template <class Endpoint>
std::string address_of(const Endpoint& endpoint) {
  const auto address = endpoint.address();
  return (address.is_v6() ? "[" + address.to_string() + "]" : address.to_string()) + ":" +
         std::to_string(endpoint.port());
}

// The socket under a stream: a tcp::socket, or the one of a beast::tcp_stream
// (the lowest layer of an ssl_stream over one too).
template <class Lowest>
auto& socket_of(Lowest& lowest) {
  if constexpr (requires { lowest.socket(); }) return lowest.socket();
  else return lowest;
}

// Watches the client's side of the connection while a body is written: a
// client that closes it is noticed at once, and its body let go. A wake-up
// with nothing to read is waited past (epoll may report readiness that a
// read does not find); bytes the client sends are the application's to
// read next, and end the watch.
template <class Socket>
void watch_for_close(Socket& socket, std::weak_ptr<http_body_stream> body) {
  socket.async_wait(Socket::wait_read, [&socket, body](boost::system::error_code ec) {
    if (ec == asio::error::operation_aborted) return;  // the response has ended
    const auto open = body.lock();
    if (!open) return;
    if (!ec) {
      char next = 0;
      boost::system::error_code peeked;
      const bool was_non_blocking = socket.non_blocking();
      socket.non_blocking(true, peeked);
      const auto n = socket.receive(asio::buffer(&next, 1), Socket::message_peek, peeked);
      boost::system::error_code ignored;
      socket.non_blocking(was_non_blocking, ignored);
      if (peeked == asio::error::would_block || peeked == asio::error::try_again) return watch_for_close(socket, body);
      if (!peeked && n > 0) return;
    }
    open->close();  // closed by the client, or failed
  });
}

// The stream handed over to the endpoint for a WebSocket session. The
// endpoint calls from its own strand; each operation runs on the stream's
// executor (where its other operations run: TLS's state is not to be
// touched from two threads), and the endpoint's callback is handed the result.
// It ends with TLS's close_notify (an ssl_stream), or TCP's shutdown.
template <class Stream>
class handed_over final : public upgraded_stream {
 public:
  explicit handed_over(Stream& stream) : stream_(stream) {}

  void async_read_some(asio::mutable_buffer buffer, io_done done) override {
    asio::dispatch(stream_.get_executor(), [&stream = stream_, buffer, done = std::move(done)]() mutable {
      stream.async_read_some(buffer, std::move(done));
    });
  }
  void async_write_some(std::span<const asio::const_buffer> buffers, io_done done) override {
    asio::dispatch(stream_.get_executor(), [&stream = stream_, buffers, done = std::move(done)]() mutable {
      stream.async_write_some(buffers, std::move(done));
    });
  }
  void async_teardown(end_done done) override {
    asio::dispatch(stream_.get_executor(), [&stream = stream_, done = std::move(done)]() mutable {
      if constexpr (requires { stream.async_shutdown(std::move(done)); }) {
        stream.async_shutdown(std::move(done));  // TLS: close_notify
      } else {
        // TCP: our end, then the peer's (its FIN makes the socket readable).
        auto& socket = socket_of(boost::beast::get_lowest_layer(stream));
        boost::system::error_code ignored;
        socket.shutdown(socket.shutdown_send, ignored);
        socket.async_wait(socket.wait_read, std::move(done));
      }
    });
  }
  void close() noexcept override {
    asio::dispatch(stream_.get_executor(),
                   [&stream = stream_] { boost::beast::close_socket(boost::beast::get_lowest_layer(stream)); });
  }

 private:
  Stream& stream_;
};

// The request as the endpoint takes it; the addresses from the stream's socket.
template <class Stream, class Fields>
http_endpoint_request endpoint_request(Stream& stream, const http::request<http::string_body, Fields>& req) {
  http_endpoint_request in;
  in.method = std::string(req.method_string());
  in.target = std::string(req.target());
  for (const auto& field : req) in.headers.add(field.name_string(), field.value());
  in.body = req.body();
  in.http_version = req.version() == 10 ? 10 : 11;
  in.can_upgrade = true;  // (async_serve hands the stream over for WebSocket)
  boost::system::error_code ec;
  auto& socket = socket_of(boost::beast::get_lowest_layer(stream));
  if (const auto remote = socket.remote_endpoint(ec); !ec) in.remote_endpoint = address_of(remote);
  if (const auto local = socket.local_endpoint(ec); !ec) in.local_endpoint = address_of(local);
  return in;
}

template <class Stream, class Fields>
asio::awaitable<bool> serve(http_endpoint& endpoint, Stream& stream, http::request<http::string_body, Fields> req) {
  auto out = co_await endpoint.async_handle(endpoint_request(stream, req), asio::use_awaitable);
  if (out.upgrade) {  // WebSocket: the connection carries that session until it ends
    auto& lowest = boost::beast::get_lowest_layer(stream);
    if constexpr (requires { lowest.expires_never(); }) lowest.expires_never();  // (keep-alive is the endpoint's)
    co_await out.upgrade->async_run(std::make_unique<handed_over<Stream>>(stream), asio::as_tuple(asio::use_awaitable));
    co_return false;
  }
  const bool keep_alive = req.keep_alive();
  if (!out.stream) {
    http::response<http::string_body> res{static_cast<http::status>(out.status), req.version()};
    for (const auto& [name, value] : out.headers) res.insert(name, value);
    res.body() = std::move(out.body);
    res.prepare_payload();
    res.keep_alive(keep_alive);
    co_await http::async_write(stream, res, asio::use_awaitable);
    co_return keep_alive;
  }
  http::response<http::empty_body> head{static_cast<http::status>(out.status), req.version()};
  for (const auto& [name, value] : out.headers) head.insert(name, value);
  head.chunked(true);
  head.keep_alive(keep_alive);
  http::response_serializer<http::empty_body> serializer{head};
  auto [head_error, head_bytes] =
      co_await http::async_write_header(stream, serializer, asio::as_tuple(asio::use_awaitable));
  if (head_error) {
    out.stream->close();
    co_return false;
  }
  auto& socket = socket_of(boost::beast::get_lowest_layer(stream));
  watch_for_close(socket, std::weak_ptr<http_body_stream>(out.stream));
  struct stop_watching {
    decltype(socket)& watched;
    ~stop_watching() {
      boost::system::error_code ignored;
      watched.cancel(ignored);
    }
  } watching{socket};
  for (;;) {
    auto [ended, data] = co_await out.stream->async_read(asio::as_tuple(asio::use_awaitable));
    if (!data.empty()) {
      auto [write_error, n] = co_await asio::async_write(stream, http::make_chunk(asio::buffer(data)),
                                                         asio::as_tuple(asio::use_awaitable));
      if (write_error) {  // the client went away
        out.stream->close();
        co_return false;
      }
    }
    if (ended == asio::error::eof) break;
    if (ended) co_return false;  // given up: no last chunk, so the client knows to resume
  }
  auto [last_error, last_bytes] = co_await asio::async_write(stream, http::make_chunk_last(),
                                                             asio::as_tuple(asio::use_awaitable));
  co_return !last_error && keep_alive;
}

}  // namespace beast_detail

/// Serves `req`, which the application read from `stream` (a socket, a
/// beast::tcp_stream, an ssl_stream over either), with `endpoint`, writing
/// the response on `stream`. Completion
/// signature `void(std::exception_ptr, bool keep_alive)`: whether the
/// connection may carry the next request (never after a WebSocket session,
/// which completes the operation when it ends). Any completion token; the
/// stream must outlive the operation, and nothing else may use it meanwhile.
template <class Stream, class Fields, class CompletionToken>
auto async_serve(http_endpoint& endpoint, Stream& stream,
                 boost::beast::http::request<boost::beast::http::string_body, Fields> req, CompletionToken&& token) {
  return boost::asio::co_spawn(stream.get_executor(), beast_detail::serve(endpoint, stream, std::move(req)),
                               std::forward<CompletionToken>(token));
}

}  // namespace mcp::adapters
