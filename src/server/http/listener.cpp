// The built-in listener (http_server): a socket that accepts connections,
// one coroutine per connection that reads its requests (TLS handshake first,
// when configured) and hands each to the endpoint, and run_http_server. It
// is a driver of the endpoint like any application's server (exchange.cpp):
// every MCP rule is the endpoint's.

#include "endpoint_impl.hpp"

#include "../../transport/http/server/connection_io.hpp"
#include "../../transport/http/tls_context.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/http_server.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>

namespace mcp {

namespace {

using tcp = asio::ip::tcp;
using detail::connection_io;
namespace beast = boost::beast;
constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);

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

http_run_result run_http_server(server_behaviour& behaviour, http_server_options options,
                                std::function<void(std::string_view url)> on_listening) {
  options.threads = threads_of(options);
  const auto threads = options.threads;
  // On the heap: when handlers outlive the shutdown, both are left to them.
  auto io_owner = std::make_unique<asio::io_context>(static_cast<int>(threads));
  auto& io = *io_owner;
  const bool secure = !options.tls_certificate_file.empty();
  const auto host = options.host;
  const auto path = options.path;
  const auto drain_seconds = std::chrono::duration<double>(options.shutdown_timeout).count();
  auto server_owner = std::make_unique<http_server>(io.get_executor(), behaviour, std::move(options));
  auto& server = *server_owner;
  // Listening for signals before the URL goes out: a script may signal us as
  // soon as it reads it. On a strand: its handler and the cancel at the end
  // may otherwise run at once on two threads.
  asio::signal_set signals(asio::make_strand(io), SIGINT, SIGTERM);
  std::function<void(const boost::system::error_code&, int)> on_signal;
  int signals_seen = 0;
  on_signal = [&](const boost::system::error_code& ec, int) {
    if (ec) return;
    // The first signal drains (calls in flight finish within shutdown_timeout),
    // a second one cancels them at once.
    if (++signals_seen == 1) {
      sdk_log(log_category::server, log_level::info, "shutting down; a second signal stops at once",
              {{"drain_seconds", drain_seconds}});
      signals.async_wait(on_signal);
    }
    server.stop();
  };
  signals.async_wait(on_signal);
  if (on_listening) {
    const auto url = std::string(secure ? "https" : "http") + "://" + host + ":" +
                     std::to_string(server.local_port()) + path;
    on_listening(url);
  }
  int exit_code = 0;
  // Once run() returns, what is left (connections closing) gets a moment;
  // work that outlives it (a handler that ignores its cancellation, a client
  // that reads nothing) would keep io.run() going: the watchdog stops it.
  std::mutex ending;
  std::condition_variable ended;
  bool run_returned = false, io_returned = false, abandoned = false;
  asio::co_spawn(io, server.run(), [&](std::exception_ptr failure) {
    asio::post(signals.get_executor(), [&signals] { signals.cancel(); });
    if (failure) exit_code = 1;
    std::lock_guard lock(ending);
    run_returned = true;
    ended.notify_all();
  });
  std::thread watchdog([&] {
    std::unique_lock lock(ending);
    ended.wait(lock, [&] { return run_returned || io_returned; });
    if (!ended.wait_for(lock, http_endpoint::impl::abandon_after, [&] { return io_returned; })) {
      abandoned = true;
      io.stop();
    }
  });
  std::vector<std::thread> helpers;
  for (unsigned i = 1; i < threads; ++i) helpers.emplace_back([&io] { io.run(); });
  io.run();
  for (auto& helper : helpers) helper.join();
  {
    std::lock_guard lock(ending);
    io_returned = true;
    ended.notify_all();
  }
  watchdog.join();
  if (abandoned && server.session_count() != 0) {
    // Handlers still run: they use the behaviour, their sessions and (from a
    // worker thread) this io_context, so nothing may be destroyed under
    // them: the io_context and the server are left to them.
    sdk_log(log_category::server, log_level::error, "handlers that ignore cancellation are still running");
    server_owner.release();
    io_owner.release();
    return {exit_code, true};
  }
  return {exit_code, false};
}

}  // namespace mcp
