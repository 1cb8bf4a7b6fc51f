// The HTTP endpoint driven with no socket at all: requests as values in,
// responses as values out, as an application's own HTTP server drives it
// (docs/embedding.md). What the listener's tests check over sockets holds
// here too: the Host and Origin rules, sessions, SSE streams that the reader
// pulls, a reader that goes away, the legacy transport, shutdown.

#include <mcp/server/http_endpoint.hpp>
#include <mcp/server/server.hpp>

#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_future.hpp>

#include <thread>
#include <tuple>

namespace mcp::test {
namespace {

std::shared_ptr<server> endpoint_server() {
  auto srv = std::make_shared<server>(implementation{"embedded", "1.0"});
  srv->add_tool({"echo", "Echoes its text"},
                [](const json::object& args, request_context&) -> asio::awaitable<call_tool_result> {
                  co_return call_tool_result::text(std::string(args.at("text").as_string()));
                });
  // Its pauses make the reader wait for each event (the body written while a read is pending).
  srv->add_tool({"progress", "Reports progress twice, pausing, then answers"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  co_await ctx.progress(1, 2);
                  co_await sleep_for(20ms);
                  co_await ctx.progress(2, 2);
                  co_await sleep_for(20ms);
                  co_return call_tool_result::text("done");
                });
  // A stream (its progress comes first) whose answer is far over what the
  // endpoint queues ahead of a reader.
  srv->add_tool({"big", "Reports progress, then answers 1 MiB"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  co_await ctx.progress(1, 1);
                  co_return call_tool_result::text(std::string(1 << 20, 'x'));
                });
  return srv;
}

http_endpoint_request post(std::string body, std::string session = {}, std::string version = "2025-11-25",
                           std::string host = "127.0.0.1:8080") {
  http_endpoint_request req;
  req.method = "POST";
  req.target = "/mcp";
  req.headers.add("Host", host);
  req.headers.add("Content-Type", "application/json");
  req.headers.add("Accept", "application/json, text/event-stream");
  if (!session.empty()) req.headers.add("Mcp-Session-Id", session);
  if (!version.empty()) req.headers.add("MCP-Protocol-Version", version);
  req.body = std::move(body);
  req.remote_endpoint = "127.0.0.1:40000";
  req.local_endpoint = "127.0.0.1:8080";
  return req;
}

const std::string initialize =
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",)"
    R"("capabilities":{},"clientInfo":{"name":"embedder","version":"1"}}})";

// The whole body of a streamed response, read until it ends.
asio::awaitable<std::string> read_all(http_body_stream& body) {
  std::string text;
  for (;;) {
    auto [ec, bytes] = co_await body.async_read(asio::as_tuple(asio::use_awaitable));
    text += bytes;
    if (ec == asio::error::eof) co_return text;
    if (ec) throw boost::system::system_error(ec);
  }
}

// The body of a response, whole or streamed.
asio::awaitable<std::string> body_of(http_endpoint_response& response) {
  if (!response.stream) co_return response.body;
  co_return co_await read_all(*response.stream);
}

// Opens a session: its id.
asio::awaitable<std::string> open_session(http_endpoint& endpoint) {
  auto response = co_await endpoint.async_handle(post(initialize, {}, {}), asio::use_awaitable);
  EXPECT_EQ(response.status, 200u);
  const auto id = response.headers.find("mcp-session-id");
  EXPECT_TRUE(id.has_value());
  const auto text = co_await body_of(response);
  EXPECT_NE(text.find("\"serverInfo\""), std::string::npos) << text;
  auto initialized = co_await endpoint.async_handle(
      post(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", std::string(id.value_or(""))),
      asio::use_awaitable);
  EXPECT_EQ(initialized.status, 202u);
  co_return std::string(id.value_or(""));
}

http_endpoint_options one_thread() {
  http_endpoint_options options;
  options.threads = 1;
  return options;
}

TEST(HttpEndpoint, ServesASessionWithoutASocket) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, one_thread());
    const auto session = co_await open_session(endpoint);
    CO_ASSERT_TRUE(!session.empty());
    auto response = co_await endpoint.async_handle(
        post(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})",
             session),
        asio::use_awaitable);
    EXPECT_EQ(response.status, 200u);
    const auto text = co_await body_of(response);
    EXPECT_NE(text.find(R"("text":"hi")"), std::string::npos) << text;
    EXPECT_FALSE(response.headers.contains("content-length")) << "framing is the application's";
    co_await endpoint.async_stop(asio::use_awaitable);
    EXPECT_EQ(endpoint.session_count(), 0u);
  });
}

TEST(HttpEndpoint, StreamsProgressAsSseEventsThatTheReaderPulls) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, one_thread());
    const auto session = co_await open_session(endpoint);
    auto request = post(
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"progress","arguments":{},"_meta":{"progressToken":"p"}}})",
        session);
    auto response = co_await endpoint.async_handle(std::move(request), asio::use_awaitable);
    EXPECT_EQ(response.status, 200u);
    CO_ASSERT_TRUE(response.stream != nullptr);
    EXPECT_EQ(response.headers.find("content-type").value_or(""), "text/event-stream");
    const auto text = co_await read_all(*response.stream);
    EXPECT_NE(text.find("notifications/progress"), std::string::npos) << text;
    EXPECT_NE(text.find("\"done\""), std::string::npos) << text;
    EXPECT_NE(text.find("id: "), std::string::npos) << "events carry ids for resumption: " << text;
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

const std::string big_call =
    R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"big","arguments":{},"_meta":{"progressToken":"b"}}})";

TEST(HttpEndpoint, ASlowReaderGetsABigBodyWhole) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, one_thread());
    const auto session = co_await open_session(endpoint);
    auto response = co_await endpoint.async_handle(post(big_call, session), asio::use_awaitable);
    CO_ASSERT_TRUE(response.stream != nullptr);
    std::string text;
    for (;;) {
      co_await sleep_for(5ms);  // the writer waits for room meanwhile
      auto [ec, bytes] = co_await response.stream->async_read(asio::as_tuple(asio::use_awaitable));
      text += bytes;
      if (ec) {
        EXPECT_EQ(ec, asio::error::eof) << ec.message();
        break;
      }
    }
    EXPECT_GT(text.size(), std::size_t{1} << 20);
    EXPECT_NE(text.find("\"id\":4"), std::string::npos);
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

TEST(HttpEndpoint, ABodyNobodyReadsIsGivenUpAfterTheWriteTimeout) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    auto options = one_thread();
    options.write_timeout = 200ms;
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, options);
    const auto session = co_await open_session(endpoint);
    auto response = co_await endpoint.async_handle(post(big_call, session), asio::use_awaitable);
    CO_ASSERT_TRUE(response.stream != nullptr);
    co_await sleep_for(600ms);  // nobody reads
    boost::system::error_code ended;
    for (int reads = 0; reads < 100 && !ended; ++reads) {
      auto [ec, bytes] = co_await response.stream->async_read(asio::as_tuple(asio::use_awaitable));
      ended = ec;
    }
    EXPECT_EQ(ended, asio::error::connection_aborted) << "given up, not ended whole: " << ended.message();
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

TEST(HttpEndpoint, KeepsTheHostAndOriginRulesOnALoopbackAddress) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, one_thread());
    auto foreign_origin = post(initialize, {}, {});
    foreign_origin.headers.add("Origin", "https://evil.example");
    auto refused = co_await endpoint.async_handle(std::move(foreign_origin), asio::use_awaitable);
    EXPECT_EQ(refused.status, 403u);

    auto refused_host =
        co_await endpoint.async_handle(post(initialize, {}, {}, "attacker.example"), asio::use_awaitable);
    EXPECT_EQ(refused_host.status, 403u);

    // Not known to be on loopback, with no allowed_hosts: the Host is not checked.
    auto remote = post(initialize, {}, {}, "mcp.example.com");
    remote.local_endpoint = "192.0.2.10:443";
    auto served = co_await endpoint.async_handle(std::move(remote), asio::use_awaitable);
    EXPECT_EQ(served.status, 200u);
    co_await body_of(served);
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

TEST(HttpEndpoint, RefusesWhatTheListenerRefuses) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    auto options = one_thread();
    options.max_body_size = 64;
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, options);
    auto too_big = co_await endpoint.async_handle(post(std::string(100, ' '), {}, {}), asio::use_awaitable);
    EXPECT_EQ(too_big.status, 413u);
    EXPECT_NE(too_big.body.find("-32600"), std::string::npos) << too_big.body;

    auto unknown_session = co_await endpoint.async_handle(
        post(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", "no-such-session"), asio::use_awaitable);
    EXPECT_EQ(unknown_session.status, 404u);

    http_endpoint_request elsewhere = post("{}");
    elsewhere.target = "/other";
    auto not_found = co_await endpoint.async_handle(std::move(elsewhere), asio::use_awaitable);
    EXPECT_EQ(not_found.status, 404u);

    http_endpoint_request put = post("{}");
    put.method = "PUT";
    auto not_allowed = co_await endpoint.async_handle(std::move(put), asio::use_awaitable);
    EXPECT_EQ(not_allowed.status, 405u);
    EXPECT_EQ(not_allowed.headers.find("allow").value_or(""), "GET, POST, DELETE");
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

TEST(HttpEndpoint, AGetStreamEndsWhenItsReaderGoesAway) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, one_thread());
    const auto session = co_await open_session(endpoint);
    http_endpoint_request get;
    get.method = "GET";
    get.target = "/mcp";
    get.headers.add("Host", "localhost:8080");
    get.headers.add("Accept", "text/event-stream");
    get.headers.add("Mcp-Session-Id", session);
    get.headers.add("MCP-Protocol-Version", "2025-11-25");
    get.local_endpoint = "127.0.0.1:8080";
    auto first = co_await endpoint.async_handle(get, asio::use_awaitable);
    EXPECT_EQ(first.status, 200u);
    CO_ASSERT_TRUE(first.stream != nullptr);
    // One GET stream per session: a second one is refused while the first is read.
    auto second = co_await endpoint.async_handle(get, asio::use_awaitable);
    EXPECT_EQ(second.status, 409u);
    first.stream->close();  // the client went away
    first.stream.reset();
    // Its stream is free again.
    http_endpoint_response again;
    for (int tries = 0; tries < 50; ++tries) {
      again = co_await endpoint.async_handle(get, asio::use_awaitable);
      if (again.status == 200u) break;
      co_await sleep_for(20ms);
    }
    EXPECT_EQ(again.status, 200u);
    co_await endpoint.async_stop(asio::use_awaitable);
    // Shutdown ends the stream that is still open.
    if (again.stream) {
      auto [ec, bytes] = co_await again.stream->async_read(asio::as_tuple(asio::use_awaitable));
      while (!ec) std::tie(ec, bytes) = co_await again.stream->async_read(asio::as_tuple(asio::use_awaitable));
      EXPECT_TRUE(ec);
    }
  });
}

TEST(HttpEndpoint, ServesTheLegacySseTransport) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, one_thread());
    http_endpoint_request get;
    get.method = "GET";
    get.target = "/sse";
    get.headers.add("Host", "localhost");
    get.headers.add("Accept", "text/event-stream");
    get.local_endpoint = "127.0.0.1:8080";
    auto stream = co_await endpoint.async_handle(get, asio::use_awaitable);
    EXPECT_EQ(stream.status, 200u);
    CO_ASSERT_TRUE(stream.stream != nullptr);
    auto [ec, first] = co_await stream.stream->async_read(asio::as_tuple(asio::use_awaitable));
    EXPECT_FALSE(ec);
    EXPECT_NE(first.find("event: endpoint"), std::string::npos) << first;
    EXPECT_NE(first.find("/messages?sessionId="), std::string::npos) << first;
    stream.stream->close();
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

TEST(HttpEndpoint, ListsEveryPathToRouteToIt) {
  auto srv = endpoint_server();
  asio::io_context io;
  auto options = one_thread();
  http_endpoint plain(io.get_executor(), *srv, options);
  std::vector<std::string> paths;
  for (const auto& route : plain.routes()) paths.push_back(route.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"/mcp", "/sse", "/messages"}));
  plain.stop();
  options.stateless = true;
  http_endpoint stateless(io.get_executor(), *srv, options);
  ASSERT_EQ(stateless.routes().size(), 1u);
  EXPECT_EQ(stateless.routes()[0].methods, std::vector<std::string>{"POST"});
  stateless.stop();
  io.run_for(2s);
}

TEST(HttpEndpoint, ABlockingReaderOnAnotherThreadGetsTheBody) {
  auto srv = endpoint_server();
  asio::io_context io;
  auto work = asio::make_work_guard(io);
  std::thread runner([&io] { io.run(); });
  {
    http_endpoint endpoint(io.get_executor(), *srv, one_thread());
    auto response = endpoint.async_handle(post(initialize, {}, {}), asio::use_future).get();
    ASSERT_EQ(response.status, 200u);
    std::string text = response.body;
    if (response.stream) {
      for (int reads = 0; reads < 100; ++reads) {
        auto chunk = response.stream->read(2s);
        text += chunk.data;
        if (chunk.error == asio::error::eof) break;
        ASSERT_FALSE(chunk.error && chunk.error != asio::error::eof) << chunk.error.message();
      }
    }
    EXPECT_NE(text.find("\"serverInfo\""), std::string::npos) << text;
    endpoint.async_stop(asio::use_future).get();
  }
  work.reset();
  runner.join();
}

// --- WebSocket through a connection the application hands over ---------------------

// A WebSocket upgrade request for /mcp, from a server that can hand its connection over.
http_endpoint_request upgrade_request(bool offers_mcp = true) {
  http_endpoint_request req;
  req.method = "GET";
  req.target = "/mcp";
  req.headers.add("Host", "localhost:8080");
  req.headers.add("Connection", "Upgrade");
  req.headers.add("Upgrade", "websocket");
  req.headers.add("Sec-WebSocket-Version", "13");
  req.headers.add("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==");
  if (offers_mcp) req.headers.add("Sec-WebSocket-Protocol", "mcp");
  req.local_endpoint = "127.0.0.1:8080";
  req.can_upgrade = true;
  return req;
}

// A connection in memory: what the endpoint writes is kept; a read waits
// until the test ends the client's side (end_of_client), then fails with eof.
class memory_connection final : public upgraded_stream {
 public:
  struct state {
    std::string written;
    io_done pending_read;
    bool client_ended = false;
    bool torn_down = false;
    bool closed = false;
  };
  explicit memory_connection(std::shared_ptr<state> s) : s_(std::move(s)) {}

  void async_read_some(asio::mutable_buffer, io_done done) override {
    if (s_->client_ended || s_->closed) return done(asio::error::eof, 0);
    s_->pending_read = std::move(done);
  }
  void async_write_some(std::span<const asio::const_buffer> buffers, io_done done) override {
    std::size_t n = 0;
    for (const auto& b : buffers) {
      s_->written.append(static_cast<const char*>(b.data()), b.size());
      n += b.size();
    }
    done({}, n);
  }
  void async_teardown(end_done done) override {
    s_->torn_down = true;
    done({});
  }
  void close() noexcept override {
    s_->closed = true;
    if (auto read = std::exchange(s_->pending_read, nullptr)) read(asio::error::operation_aborted, 0);
  }

  static void end_of_client(state& s) {
    s.client_ended = true;
    if (auto read = std::exchange(s.pending_read, nullptr)) read(asio::error::eof, 0);
  }

 private:
  std::shared_ptr<state> s_;
};

http_endpoint_options with_websocket() {
  auto options = one_thread();
  options.websocket = true;
  return options;
}

TEST(HttpEndpoint, AnUpgradeIsServedOnTheConnectionTheApplicationHandsOver) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, with_websocket());
    auto response = co_await endpoint.async_handle(upgrade_request(), asio::use_awaitable);
    EXPECT_EQ(response.status, 101u);
    CO_ASSERT_TRUE(response.upgrade != nullptr);
    EXPECT_FALSE(response.stream) << "nothing for the application to write";
    auto connection = std::make_shared<memory_connection::state>();
    auto run = response.upgrade->async_run(std::make_unique<memory_connection>(connection), asio::use_awaitable);
    const std::function<bool()> answered = [&] { return connection->pending_read != nullptr; };
    asio::co_spawn(co_await asio::this_coro::executor, [&]() -> asio::awaitable<void> {
      co_await wait_until(answered, 2s);  // the 101 is written and the session reads
      EXPECT_EQ(endpoint.session_count(), 1u);
      memory_connection::end_of_client(*connection);  // the client goes away
    }, asio::detached);
    co_await std::move(run);  // the session has ended and let the connection go
    EXPECT_TRUE(connection->written.starts_with("HTTP/1.1 101")) << connection->written;
    EXPECT_NE(connection->written.find("Sec-WebSocket-Protocol: mcp"), std::string::npos) << connection->written;
    EXPECT_EQ(endpoint.session_count(), 0u);
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

TEST(HttpEndpoint, AnUpgradeKeepsTheRulesAndNeedsAServerThatCanHandItsConnectionOver) {
  auto srv = endpoint_server();
  run_test([&]() -> asio::awaitable<void> {
    http_endpoint endpoint(co_await asio::this_coro::executor, *srv, with_websocket());
    auto foreign = upgrade_request();
    foreign.headers.add("Origin", "https://evil.example");
    auto refused = co_await endpoint.async_handle(std::move(foreign), asio::use_awaitable);
    EXPECT_EQ(refused.status, 403u);
    EXPECT_FALSE(refused.upgrade);

    auto bad = co_await endpoint.async_handle(upgrade_request(false), asio::use_awaitable);
    EXPECT_EQ(bad.status, 400u);
    EXPECT_FALSE(bad.upgrade);

    // A server that cannot hand its connection over: served as the GET it also is.
    auto plain = upgrade_request();
    plain.can_upgrade = false;
    auto served = co_await endpoint.async_handle(std::move(plain), asio::use_awaitable);
    EXPECT_NE(served.status, 101u);
    EXPECT_FALSE(served.upgrade);

    // An upgrade the application drops: its session ends at once.
    auto dropped = co_await endpoint.async_handle(upgrade_request(), asio::use_awaitable);
    CO_ASSERT_TRUE(dropped.upgrade != nullptr);
    dropped.upgrade.reset();
    const std::function<bool()> ended = [&] { return endpoint.session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(ended, 2s));
    co_await endpoint.async_stop(asio::use_awaitable);
  });
}

}  // namespace
}  // namespace mcp::test
