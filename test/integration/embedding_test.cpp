// The endpoint mounted in an application's own HTTP server: beast-server
// (examples/beast_server.cpp, its own Boost.Beast server), httplib-server
// (examples/httplib_server.cpp, cpp-httplib) and civetweb-server
// (examples/civetweb_server.cpp, CivetWeb) serve MCP beside a route of
// their own, spawned as a user would run them and spoken to over a real
// socket. What the built-in listener answers, each adapter answers too.
// beast-server also serves MCP over WebSocket on its own connections, and
// all of it over TLS with --tls.

#include "echo_reply.hpp"
#include "http_client.hpp"
#include "http_test_server.hpp"
#include "child_process.hpp"
#include "test_certificates.hpp"
#include "test_support.hpp"

#include <mcp/adapters/beast.hpp>
#include <mcp/client/client.hpp>
#include <mcp/transport/http_client.hpp>
#include <mcp/transport/websocket.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/use_future.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>

#include <chrono>
#include <csignal>
#include <memory>
#include <string>

namespace mcp::test {
namespace {

// The application on a free port, stopped with SIGTERM at the end.
struct embedding_app {
  explicit embedding_app(const std::string& program) : embedding_app(std::vector<std::string>{test_program(program)}) {}
  explicit embedding_app(std::vector<std::string> argv) : child(std::move(argv)) {
    const auto url = child.read_line(10s);  // http(s)://127.0.0.1:PORT/mcp
    const auto authority = url.find("://127.0.0.1:");
    if (authority == std::string::npos || !url.ends_with("/mcp"))
      throw std::runtime_error("unexpected first line: " + url);
    port = static_cast<std::uint16_t>(std::stoul(url.substr(authority + 13)));
  }
  ~embedding_app() { child.stop(5s); }

  child_process child;
  std::uint16_t port = 0;
};

// The example programs, by name.
class Embedded : public ::testing::TestWithParam<std::string> {
 protected:
  void against_app(std::function<asio::awaitable<void>(embedding_app&)> body) {
    std::unique_ptr<embedding_app> app;
    ASSERT_NO_THROW(app = std::make_unique<embedding_app>(GetParam()));
    run_test([&]() -> asio::awaitable<void> { co_await body(*app); }, 30s);
  }
};

TEST_P(Embedded, ServesASessionAndAToolCallBesideTheApplicationsOwnRoutes) {
  against_app([](embedding_app& app) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, app.port);
    const auto session = co_await open_session(c);
    EXPECT_FALSE(session.empty());
    const auto call = session_post(rpc_request(2, "tools/call", tool_call("echo", {{"text", "mounted"}})), session);
    const auto reply = co_await c.send(call);
    EXPECT_EQ(reply.status, 200);
    EXPECT_NE(reply.body.find("mounted"), std::string::npos) << reply.body;
    http_connection own(co_await asio::this_coro::executor, app.port);
    const http_request health_check(http::verb::get, "/health");  // (bound first: g++ 12, docs/compilers.md)
    const auto health = co_await own.send(health_check);
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.body, "ok");
  });
}

TEST_P(Embedded, RefusesAForeignOriginAndAnUnknownSessionAsTheListenerDoes) {
  against_app([](embedding_app& app) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, app.port);
    auto foreign = mcp_post(rpc_request(0, "initialize", initialize_params()));
    foreign.header("Origin", "https://evil.example");
    const auto refused = co_await c.send(foreign);
    EXPECT_EQ(refused.status, 403);
    http_connection d(co_await asio::this_coro::executor, app.port);
    const auto list = session_post(rpc_request(1, "tools/list", json::object{}), "no-such-session");
    const auto unknown = co_await d.send(list);
    EXPECT_EQ(unknown.status, 404);
    EXPECT_NE(unknown.body.find("-32600"), std::string::npos) << unknown.body;
  });
}

TEST_P(Embedded, AGetStreamIsFreedWhenItsClientGoesAway) {
  against_app([](embedding_app& app) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, app.port);
    const auto session = co_await open_session(c);
    auto get = mcp_get(session);
    get.header(std::string(version_header), "2025-11-25");
    {
      http_connection reader(co_await asio::this_coro::executor, app.port);
      co_await reader.write(get);
      const auto head = co_await reader.read_head();
      EXPECT_EQ(head.status, 200);
    }  // the client goes away
    // Its stream is let go (at the next keep-alive at the latest): a new GET gets one.
    int status = 0;
    for (int tries = 0; tries < 40 && status != 200; ++tries) {
      http_connection again(co_await asio::this_coro::executor, app.port);
      co_await again.write(get);
      status = (co_await again.read_head()).status;
      if (status != 200) co_await sleep_for(500ms);
    }
    EXPECT_EQ(status, 200);
  });
}

// Our client over `transport`: the echo tool's answer to `text`.
asio::awaitable<std::string> echo_over(std::unique_ptr<message_transport> transport, std::string text) {
  const auto ex = co_await asio::this_coro::executor;
  mcp::client c(ex, client_options{});  // (not in the co_await line: g++ 12, docs/compilers.md)
  co_await c.connect(std::move(transport));
  auto echoed = co_await echo_reply(c, std::move(text));
  co_await c.close();
  co_return echoed;
}

// beast-server's own connections carry MCP over WebSocket and TLS too.
class EmbeddedBeast : public tls_test_suite {
 protected:
  void against_app(std::vector<std::string> arguments, std::function<asio::awaitable<void>(embedding_app&)> body) {
    arguments.insert(arguments.begin(), test_program("beast-server"));
    std::unique_ptr<embedding_app> app;
    ASSERT_NO_THROW(app = std::make_unique<embedding_app>(std::move(arguments)));
    run_test([&]() -> asio::awaitable<void> { co_await body(*app); }, 30s);
  }
};

TEST_F(EmbeddedBeast, ServesMcpOverWebSocketOnTheApplicationsConnection) {
  against_app({}, [](embedding_app& app) -> asio::awaitable<void> {
    const auto ex = co_await asio::this_coro::executor;
    const auto url = "ws://127.0.0.1:" + std::to_string(app.port) + "/mcp";
    for (const std::string text : {"first", "second"}) {  // a session that ended frees the way for the next
      auto transport = co_await connect_websocket(ex, url);
      EXPECT_EQ(co_await echo_over(std::move(transport), text), text);
    }
    // The endpoint's rules hold for an upgrade through the adapter: a foreign Origin gets 403.
    websocket_client_options foreign;
    foreign.headers["Origin"] = "https://evil.example";
    std::optional<unsigned> status;
    try {
      co_await connect_websocket(ex, url, std::move(foreign));
    } catch (const websocket_upgrade_error& e) {
      status = e.status();
    }
    EXPECT_EQ(status, 403u);
    // And the application's own routes still answer beside it.
    http_connection own(ex, app.port);
    const http_request health_check(http::verb::get, "/health");
    EXPECT_EQ((co_await own.send(health_check)).status, 200);
  });
}

TEST_F(EmbeddedBeast, ServesHttpsAndWssOnTheApplicationsTlsStream) {
  against_app({"--tls", certs->cert, certs->key}, [](embedding_app& app) -> asio::awaitable<void> {
    const auto ex = co_await asio::this_coro::executor;
    const auto authority = "://localhost:" + std::to_string(app.port) + "/mcp";
    http_client_options https;
    https.ca_file = certs->cert;
    auto over_https = co_await connect_http(ex, "https" + authority, std::move(https));
    EXPECT_EQ(co_await echo_over(std::move(over_https), "over https"), "over https");
    websocket_client_options wss;
    wss.ca_file = certs->cert;
    auto over_wss = co_await connect_websocket(ex, "wss" + authority, std::move(wss));
    EXPECT_EQ(co_await echo_over(std::move(over_wss), "over wss"), "over wss");
  });
}

// The Beast adapter in this process, the endpoint on threads of its own
// (4 under ThreadSanitizer) and the application's server on the test's: a
// WebSocket connection handed over crosses between the two, each operation
// on the stream's executor, each completion back on the endpoint's strand.
TEST(EmbeddedBeastInProcess, AWebSocketSessionCrossesFromTheApplicationsThreadsToTheEndpoints) {
  auto tools = make_tools();
  const auto threads = std::max(2u, test_server_threads());
  server_threads endpoint_threads(threads);
  http_endpoint_options options;
  options.threads = threads;
  options.websocket = true;
  auto endpoint = std::make_unique<http_endpoint>(endpoint_threads.executor(), *tools, options);
  run_test([&]() -> asio::awaitable<void> {
    const auto ex = co_await asio::this_coro::executor;
    asio::ip::tcp::acceptor acceptor(ex, {asio::ip::make_address("127.0.0.1"), 0});
    const auto port = acceptor.local_endpoint().port();
    // The application's server: one connection, its one request handed to the adapter.
    asio::co_spawn(
        ex,
        [&]() -> asio::awaitable<void> {
          beast::tcp_stream stream(co_await acceptor.async_accept(asio::use_awaitable));
          beast::flat_buffer buffer;
          http::request<http::string_body> req;
          co_await http::async_read(stream, buffer, req, asio::use_awaitable);
          auto [failure, keep_alive] = co_await mcp::adapters::async_serve(*endpoint, stream, std::move(req),
                                                                           asio::as_tuple(asio::use_awaitable));
          EXPECT_FALSE(failure);
          EXPECT_FALSE(keep_alive) << "a WebSocket session ends its connection";
        },
        asio::detached);
    auto transport = co_await connect_websocket(ex, "ws://127.0.0.1:" + std::to_string(port) + "/mcp");
    mcp::client c(ex, client_options{});
    co_await c.connect(std::move(transport));
    for (int i = 0; i < 20; ++i) {
      const auto text = "crossing " + std::to_string(i);
      EXPECT_EQ(co_await echo_reply(c, text), text);
    }
    co_await c.close();
    const std::function<bool()> ended = [&] { return endpoint->session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(ended, 5s));
  });
  endpoint->async_stop(asio::use_future).get();
  endpoint.reset();
}

const std::vector<std::string> embedding_programs = {
    "beast-server",
#ifdef CADUCEUS_WITH_HTTPLIB
    "httplib-server",
#endif
#ifdef CADUCEUS_WITH_CIVETWEB
    "civetweb-server",
#endif
};
INSTANTIATE_TEST_SUITE_P(Adapters, Embedded, ::testing::ValuesIn(embedding_programs));

}  // namespace
}  // namespace mcp::test
