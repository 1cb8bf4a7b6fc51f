// beast-server: an application with a Boost.Beast server of its own adds MCP
// to it. It accepts its connections and reads their requests itself, answers
// its own routes (`/health` here), and hands the MCP endpoint's paths to
// mcp::adapters::async_serve, which writes their responses on the same
// connection.
//
//   build/bin/beast-server [PORT]     (127.0.0.1; 0 or none: a free port)
//
// It prints the MCP endpoint's URL, then serves until SIGINT or SIGTERM.

#include <mcp/adapters/beast.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>

#include <algorithm>
#include <iostream>
#include <set>
#include <string>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

struct echo_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

// One connection: its requests one after another, each answered by the
// application or, on an MCP path, by the endpoint.
asio::awaitable<void> serve_connection(beast::tcp_stream stream, mcp::http_endpoint& endpoint,
                                       const std::set<std::string, std::less<>>& mcp_paths) {
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    stream.expires_after(std::chrono::seconds(60));
    auto [read_error, n] = co_await http::async_read(stream, buffer, req, asio::as_tuple(asio::use_awaitable));
    if (read_error) break;
    stream.expires_never();  // (an SSE response may last)
    const std::string_view target = req.target();
    bool keep_alive = req.keep_alive();
    if (mcp_paths.contains(target.substr(0, target.find('?')))) {
      auto [failure, keep] =
          co_await mcp::adapters::async_serve(endpoint, stream, std::move(req), asio::as_tuple(asio::use_awaitable));
      keep_alive = !failure && keep;
    } else if (target == "/health") {
      http::response<http::string_body> res{http::status::ok, req.version()};
      res.set(http::field::content_type, "text/plain");
      res.body() = "ok";
      res.prepare_payload();
      res.keep_alive(keep_alive);
      co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
    } else {
      http::response<http::empty_body> res{http::status::not_found, req.version()};
      res.keep_alive(keep_alive);
      co_await http::async_write(stream, res, asio::as_tuple(asio::use_awaitable));
    }
    if (!keep_alive) break;
  }
  boost::system::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
}

int main(int argc, char** argv) {
  mcp::server srv({"beast-app", "1.0.0"});
  srv.add_tool("echo", "Echoes the text back", [](const echo_args& a) { return a.text; });

  asio::io_context io(1);
  mcp::http_endpoint_options options;
  options.threads = 1;  // io.run() below, on this thread alone
  mcp::http_endpoint endpoint(io.get_executor(), srv, options);
  std::set<std::string, std::less<>> mcp_paths;
  for (const auto& route : endpoint.routes()) mcp_paths.insert(route.path);

  const auto port = static_cast<std::uint16_t>(argc > 1 ? std::stoi(argv[1]) : 0);
  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), port});
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (;;) {
          auto [error, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
          if (error) break;  // closed: shutting down
          asio::co_spawn(io, serve_connection(beast::tcp_stream(std::move(socket)), endpoint, mcp_paths),
                         asio::detached);
        }
      },
      asio::detached);

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code, int) {
    acceptor.close();
    endpoint.async_stop([&io] { io.stop(); });  // the sessions drain, then the open connections go
  });
  std::cout << "http://127.0.0.1:" << acceptor.local_endpoint().port() << "/mcp" << std::endl;
  io.run();
}
