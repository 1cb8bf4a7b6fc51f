// beast-server: an application with a Boost.Beast server of its own adds MCP
// to it. It accepts its connections (plain, or TLS with --tls) and reads
// their requests itself, answers its own routes (`/health` here), and hands
// the MCP endpoint's paths to mcp::adapters::async_serve, which writes their
// responses on the same connection, and serves MCP over WebSocket on it when
// a client asks for the upgrade.
//
//   build/bin/beast-server [PORT] [--tls CERT KEY]   (127.0.0.1; 0 or none: a free port)
//
// It prints the MCP endpoint's URL, then serves until SIGINT or SIGTERM.

#include <mcp/adapters/beast.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>

#include <iostream>
#include <optional>
#include <set>
#include <string>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;

struct echo_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

// One connection: its requests one after another, each answered by the
// application or, on an MCP path, by the endpoint. `Stream` is a
// beast::tcp_stream, or an ssl::stream over one.
template <class Stream>
asio::awaitable<void> serve_requests(Stream& stream, mcp::http_endpoint& endpoint,
                                     const std::set<std::string, std::less<>>& mcp_paths) {
  beast::flat_buffer buffer;
  for (;;) {
    http::request<http::string_body> req;
    beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(60));
    auto [read_error, n] = co_await http::async_read(stream, buffer, req, asio::as_tuple(asio::use_awaitable));
    if (read_error) co_return;
    beast::get_lowest_layer(stream).expires_never();  // (an SSE response may last)
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
    if (!keep_alive) co_return;
  }
}

asio::awaitable<void> serve_connection(tcp::socket socket, ssl::context* tls, mcp::http_endpoint& endpoint,
                                       const std::set<std::string, std::less<>>& mcp_paths) {
  beast::tcp_stream plain(std::move(socket));
  if (!tls) {
    co_await serve_requests(plain, endpoint, mcp_paths);
    boost::system::error_code ignored;
    plain.socket().shutdown(tcp::socket::shutdown_both, ignored);
    co_return;
  }
  ssl::stream<beast::tcp_stream> secure(std::move(plain), *tls);
  beast::get_lowest_layer(secure).expires_after(std::chrono::seconds(10));
  auto [handshake_error] =
      co_await secure.async_handshake(ssl::stream_base::server, asio::as_tuple(asio::use_awaitable));
  if (handshake_error) co_return;
  co_await serve_requests(secure, endpoint, mcp_paths);
  beast::get_lowest_layer(secure).expires_after(std::chrono::seconds(5));
  co_await secure.async_shutdown(asio::as_tuple(asio::use_awaitable));  // close_notify
}

int main(int argc, char** argv) {
  std::uint16_t port = 0;
  std::optional<ssl::context> tls;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--tls" && i + 2 < argc) {
      tls.emplace(ssl::context::tls_server);
      tls->use_certificate_chain_file(argv[++i]);
      tls->use_private_key_file(argv[++i], ssl::context::pem);
    } else {
      port = static_cast<std::uint16_t>(std::stoi(arg));
    }
  }

  mcp::server srv({"beast-app", "1.0.0"});
  srv.add_tool("echo", "Echoes the text back", [](const echo_args& a) { return a.text; });

  asio::io_context io(1);
  mcp::http_endpoint_options options;
  options.threads = 1;       // io.run() below, on this thread alone
  options.websocket = true;  // MCP over WebSocket too, on the same path
  mcp::http_endpoint endpoint(io.get_executor(), srv, options);
  std::set<std::string, std::less<>> mcp_paths;
  for (const auto& route : endpoint.routes()) mcp_paths.insert(route.path);

  tcp::acceptor acceptor(io, {asio::ip::make_address("127.0.0.1"), port});
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        for (;;) {
          auto [error, socket] = co_await acceptor.async_accept(asio::as_tuple(asio::use_awaitable));
          if (error) break;  // closed: shutting down
          asio::co_spawn(io, serve_connection(std::move(socket), tls ? &*tls : nullptr, endpoint, mcp_paths),
                         asio::detached);
        }
      },
      asio::detached);

  asio::signal_set signals(io, SIGINT, SIGTERM);
  signals.async_wait([&](boost::system::error_code, int) {
    acceptor.close();
    endpoint.async_stop([&io] { io.stop(); });  // the sessions drain, then the open connections go
  });
  std::cout << (tls ? "https" : "http") << "://127.0.0.1:" << acceptor.local_endpoint().port() << "/mcp" << std::endl;
  io.run();
}
