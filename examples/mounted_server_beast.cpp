// serve_mounted("beast"): every request read by a Beast server of
// its own and handed to the endpoint (mounted_server.hpp).

#include "mounted_server.hpp"

#include <mcp/adapters/beast.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>

#include <iostream>

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

asio::awaitable<void> hand_requests_over(beast::tcp_stream stream, mcp::http_endpoint& endpoint) {
  beast::flat_buffer buffer;
  for (bool keep_alive = true; keep_alive;) {
    beast::http::request<beast::http::string_body> req;
    auto [read_error, n] = co_await beast::http::async_read(stream, buffer, req, asio::as_tuple(asio::use_awaitable));
    if (read_error) break;
    auto [failure, keep] =
        co_await mcp::adapters::async_serve(endpoint, stream, std::move(req), asio::as_tuple(asio::use_awaitable));
    keep_alive = !failure && keep;
  }
}

asio::awaitable<void> accept(tcp::acceptor& acceptor, mcp::http_endpoint& endpoint) {
  for (;;) {
    auto [error, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
    if (error) co_return;
    asio::co_spawn(acceptor.get_executor(), hand_requests_over(beast::tcp_stream(std::move(socket)), endpoint),
                   asio::detached);
  }
}

}  // namespace

int serve_mounted_in_beast(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                           std::uint16_t port) {
  asio::io_context io(1);
  mcp::http_endpoint endpoint(io.get_executor(), behaviour, options);
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), port});
  asio::co_spawn(io, accept(acceptor, endpoint), asio::detached);
  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code, int) {
    acceptor.close();
    endpoint.async_stop([&io] { io.stop(); });
  });
  std::cout << "http://127.0.0.1:" << acceptor.local_endpoint().port() << "/mcp" << std::endl;
  io.run();
  return 0;
}
