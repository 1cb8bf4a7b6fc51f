// bench-beast-fixed-reply: the HTTP ceiling of the benchmarks. A bare
// Boost.Beast HTTP/1.1 server, one thread, one coroutine per keep-alive
// connection, that answers every POST with the same small JSON-RPC result
// and does nothing else: no JSON, no sessions, no MCP. What an MCP server on
// Beast could at best reach on this machine.
//
//   bench-beast-fixed-reply [HOST:]PORT    (prints http://HOST:PORT/mcp once listening)

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <iostream>
#include <string>

namespace asio = boost::asio;
namespace http = boost::beast::http;
using asio::ip::tcp;

namespace {

constexpr std::string_view fixed_reply = R"({"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"bench"}]}})";

asio::awaitable<void> serve_connection(tcp::socket socket) {
  socket.set_option(tcp::no_delay(true));
  boost::beast::flat_buffer buffer;
  try {
    for (;;) {
      http::request<http::string_body> request;
      co_await http::async_read(socket, buffer, request, asio::use_awaitable);
      const bool is_post = request.method() == http::verb::post;
      http::response<http::string_body> response(is_post ? http::status::ok : http::status::method_not_allowed,
                                                 request.version());
      response.set(http::field::content_type, "application/json");
      if (is_post) response.body() = fixed_reply;
      response.keep_alive(request.keep_alive());
      response.prepare_payload();
      co_await http::async_write(socket, response, asio::use_awaitable);
      if (!response.keep_alive()) break;
    }
  } catch (const boost::system::system_error&) {
    // the client closed the connection
  }
}

asio::awaitable<void> accept_connections(tcp::acceptor& acceptor) {
  for (;;) {
    tcp::socket socket = co_await acceptor.async_accept(asio::use_awaitable);
    asio::co_spawn(acceptor.get_executor(), serve_connection(std::move(socket)), asio::detached);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: bench-beast-fixed-reply [HOST:]PORT\n";
    return 2;
  }
  const std::string address = argv[1];
  const auto colon = address.rfind(':');
  const std::string host = colon == std::string::npos ? "127.0.0.1" : address.substr(0, colon);
  const auto port = static_cast<unsigned short>(std::stoul(address.substr(colon == std::string::npos ? 0 : colon + 1)));

  asio::io_context io;
  tcp::acceptor acceptor(io, {asio::ip::make_address(host), port});
  asio::signal_set stop_signals(io, SIGINT, SIGTERM);
  stop_signals.async_wait([&](boost::system::error_code, int) { io.stop(); });
  std::cout << "http://" << host << ":" << acceptor.local_endpoint().port() << "/mcp" << std::endl;
  asio::co_spawn(io, accept_connections(acceptor), asio::detached);
  io.run();
  return 0;
}
