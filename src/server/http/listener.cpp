// The built-in listener (http_server): a socket that accepts connections,
// one coroutine per connection that reads its requests (TLS handshake first,
// when configured) and hands each to the endpoint. It is a driver of the
// endpoint like any application's server (exchange.cpp): every MCP rule is
// the endpoint's. background_server.cpp runs it on threads of its own.

#include "endpoint_impl.hpp"
#include "../../detail/as_tuple_awaitable.hpp"

#include "../../transport/http/server/connection_io.hpp"
#include "../../transport/http/tls_context.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/http_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>

namespace mcp {

namespace {

using tcp = asio::ip::tcp;
using detail::connection_io;
namespace beast = boost::beast;
using detail::as_tuple_awaitable;

}  // namespace

struct http_server::impl : std::enable_shared_from_this<impl> {
  impl(asio::any_io_executor ex, server_behaviour& behaviour, http_server_options o);

  asio::awaitable<void> accept_loop();
  asio::awaitable<void> serve_connection(tcp::socket socket);
  // The TLS handshake, given up when the endpoint stops; null when it fails.
  asio::awaitable<std::unique_ptr<connection_io>> handshake(tcp::socket socket, asio::steady_timer& stop);
  // Answers a request over the body or header limit (the connection ends after).
  asio::awaitable<void> refuse_too_large(connection_io& io, const served_request& req, boost::system::error_code ec);
  void stop();

  http_server_options options;
  std::shared_ptr<http_endpoint::impl> endpoint;
  std::optional<asio::ssl::context> tls;
  tcp::acceptor acceptor;  // on the endpoint's strand
  bool loopback = true;    // the address listened on is a loopback one
};

http_server::impl::impl(asio::any_io_executor ex, server_behaviour& behaviour, http_server_options o)
    : options(std::move(o)),
      endpoint(std::make_shared<http_endpoint::impl>(ex, behaviour, options)),
      acceptor(endpoint->executor) {
  if (!options.tls_certificate_file.empty() || !options.tls_private_key_file.empty()) {
    tls.emplace(asio::ssl::context::tls_server);
    detail::apply_tls_policy(*tls);
    tls->use_certificate_chain_file(options.tls_certificate_file);
    tls->use_private_key_file(options.tls_private_key_file, asio::ssl::context::pem);
  }
  const tcp::endpoint address(asio::ip::make_address(options.host), options.port);
  acceptor.open(address.protocol());
  acceptor.set_option(asio::socket_base::reuse_address(true));
  acceptor.bind(address);
  acceptor.listen();
  loopback = address.address().is_loopback();
  endpoint->start();
}

http_server::http_server(asio::any_io_executor ex, server_behaviour& behaviour, http_server_options options)
    : impl_(std::make_shared<impl>(ex, behaviour, std::move(options))) {}

http_server::~http_server() { stop(); }

std::uint16_t http_server::local_port() const { return impl_->acceptor.local_endpoint().port(); }

std::size_t http_server::session_count() const { return impl_->endpoint->session_count(); }

asio::awaitable<void> http_server::run() {
  auto self = impl_;
  co_await asio::co_spawn(self->endpoint->executor, self->accept_loop(), asio::use_awaitable);
  // Once the endpoint has drained: every session ended, every connection closed.
  auto& endpoint = *self->endpoint;
  co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
      [&endpoint](auto handler) { endpoint.when_stopped(std::move(handler)); },
      asio::use_awaitable);
}

void http_server::stop() { impl_->stop(); }

void http_server::impl::stop() {
  asio::dispatch(endpoint->executor, [self = shared_from_this()] {
    boost::system::error_code ignored;
    self->acceptor.close(ignored);
    self->endpoint->begin_shutdown();
  });
}

asio::awaitable<void> http_server::impl::accept_loop() {
  while (!endpoint->stopping) {
    // The socket is made on the strand of its connection: its handlers
    // (reads, writes, deadlines, the close watch) all run there.
    auto [ec, socket] = co_await acceptor.async_accept(endpoint->make_strand(), as_tuple_awaitable);
    if (ec) {
      if (endpoint->stopping || ec == asio::error::operation_aborted) break;
      sdk_log(log_category::transport, log_level::warn, "accept failed", {{"error", ec.message()}});
      continue;
    }
    std::size_t open = 0;
    {
      std::lock_guard lock(endpoint->tables);
      open = endpoint->connections.size();
    }
    if (open >= options.max_connections) {
      sdk_log(log_category::transport, log_level::warn, "connection limit reached; closing a new connection");
      if (telemetry::listening(telemetry::event::connection_refused))
        detail::connection_refused(detail::peer_of(socket), "max_connections");
      boost::system::error_code ignored;
      socket.close(ignored);
      continue;
    }
    // An SSE answer goes out in several small writes (head, events, last
    // chunk); with Nagle's algorithm each would wait for the client's delayed ACK.
    boost::system::error_code ignored;
    socket.set_option(asio::ip::tcp::no_delay(true), ignored);
    const auto strand = socket.get_executor();
    asio::co_spawn(strand, serve_connection(std::move(socket)), asio::detached);
  }
}

asio::awaitable<std::unique_ptr<connection_io>> http_server::impl::handshake(tcp::socket socket,
                                                                             asio::steady_timer& stop) {
  // The handshake never throws here (`||` waits for a success), and stop()
  // cuts it short: a client that connects and never handshakes would
  // otherwise hold shutdown up for the whole handshake deadline.
  auto shake = [this](tcp::socket s) -> asio::awaitable<std::unique_ptr<connection_io>> {
    try {
      co_return co_await detail::make_tls_io(std::move(s), *tls, options.write_timeout);
    } catch (const std::exception& e) {
      sdk_log(log_category::transport, log_level::debug, "TLS handshake failed", {{"error", e.what()}});
    }
    co_return nullptr;
  };
  auto until_stopping = [this, &stop]() -> asio::awaitable<void> {
    while (!endpoint->stopping) co_await stop.async_wait(as_tuple_awaitable);
  };
  using namespace asio::experimental::awaitable_operators;
  auto outcome = co_await (shake(std::move(socket)) || until_stopping());
  if (outcome.index() == 0) co_return std::move(std::get<0>(outcome));
  co_return nullptr;
}

asio::awaitable<void> http_server::impl::serve_connection(tcp::socket socket) {
  // A connection may still be ending after run() returned and the
  // http_server is gone: it keeps the state it uses alive.
  const auto self = shared_from_this();
  const auto strand = socket.get_executor();
  std::unique_ptr<connection_io> io;
  asio::steady_timer handshake_stop(strand, asio::steady_timer::time_point::max());
  // Counted from the start, TLS handshake included: shutdown waits for it,
  // and it counts against max_connections. stop() ends its handshake, or
  // its wait for a request.
  auto& entry = endpoint->open_channel(strand, nullptr, [&io, &handshake_stop](bool) {
    if (io) io->stop_reading();
    else handshake_stop.cancel();
  });
  const auto number = entry.number;
  if (tls) {
    std::string peer;  // (for a refusal: the socket is gone by then)
    if (telemetry::listening(telemetry::event::connection_refused)) peer = detail::peer_of(socket);
    io = co_await handshake(std::move(socket), handshake_stop);
    if (!io) {
      detail::connection_refused(peer, endpoint->stopping ? "shutting_down" : "tls_handshake");
      endpoint->close_channel(number);
      co_return;
    }
  } else {
    io = detail::make_tcp_io(std::move(socket), options.write_timeout);
  }
  entry.io = io.get();
  detail::connection_telemetry connection_events(*io, tls ? "https" : "http");
  beast::flat_buffer buffer;
  served_request req;  // one for the connection's requests, one after another
  req.loopback = loopback;
  try {
    while (!endpoint->stopping) {
      detail::request_reader reader(req, detail::known_header_slot);
      req.forget_previous();
      detail::http_request_telemetry request_events(*io);
      reader.body_limit(options.max_body_size);
      reader.header_limit(static_cast<std::uint32_t>(options.max_header_size));
      const auto ec = co_await io->read(buffer, reader, options.request_timeout);
      const bool too_large = ec == http::error::body_limit || ec == http::error::header_limit;
      if (ec && !too_large) break;  // end of stream, timeout, reset, malformed HTTP: nothing to answer
      request_events.arrived();
      entry.busy = true;
      bool keep_alive = false;
      std::exception_ptr failure;
      try {
        if (too_large) co_await refuse_too_large(*io, req, ec);
        else keep_alive = co_await endpoint->dispatch(*io, req);
      } catch (...) {
        failure = std::current_exception();
      }
      request_events.answered(*io, req);
      connection_events.answered();
      if (io->counted().status == 101) connection_events.upgraded();
      entry.busy = false;
      if (failure) std::rethrow_exception(failure);
      if (!keep_alive) break;
    }
  } catch (const std::exception& e) {
    sdk_log(log_category::transport, log_level::debug, "HTTP connection ended", {{"error", e.what()}});
  }
  if (req.taken_over) {
    entry.stop_waiting = nullptr;  // (it refers to this frame's locals)
    endpoint->hand_over_connection(std::move(req.taken_over), std::move(io), number, &connection_events);
    co_return;
  }
  entry.stop_waiting = nullptr;  // (it refers to this frame's locals)
  endpoint->close_channel(number);
  connection_events.closed(*io);
  co_await io->close();
}

asio::awaitable<void> http_server::impl::refuse_too_large(connection_io& io, const served_request& req,
                                                         boost::system::error_code ec) {
  if (ec == http::error::body_limit) {  // (the head has been read)
    co_await endpoint->refuse_too_large_body(io, req);
  } else {
    const http_request head;
    co_await endpoint->reply_status(io, head, http::status::request_header_fields_too_large);
  }
}

}  // namespace mcp
