// Our client against server-everything, over every transport: the handshake,
// each protocol version, ping, errors, and logging.

#include "everything_fixture.hpp"

#include <mcp/transport/http_client.hpp>

#include <algorithm>

namespace mcp::test {
namespace {

class EverythingSession : public everything_test {};

TEST_P(EverythingSession, HandshakeShowsTheServer) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    const auto hello = co_await connect(c);
    EXPECT_EQ(hello.version, protocol_version::v2025_11_25);
    EXPECT_EQ(hello.server_info.name, "mcp-servers/everything");
    EXPECT_EQ(hello.server_info.version, "2.0.0");
    const auto& caps = hello.capabilities;
    EXPECT_EQ(caps.at("tools").at("listChanged"), true);
    EXPECT_EQ(caps.at("resources").at("subscribe"), true);
    EXPECT_EQ(caps.at("prompts").at("listChanged"), true);
    EXPECT_TRUE(caps.contains("logging"));
    EXPECT_TRUE(caps.contains("completions"));
    CO_ASSERT_TRUE(hello.instructions.has_value());
    EXPECT_EQ(*hello.instructions, file_text(everything_docs() + "/instructions.md"));
    co_await c.ping();
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingSession, NegotiatesEachVersion) {
  for (auto version : legacy_versions()) {
    SCOPED_TRACE(std::string(to_string(version)));
    run_test([this, version]() -> asio::awaitable<void> {
      client_options options;
      options.versions = {version};
      mcp::client c(co_await asio::this_coro::executor, options);
      const auto hello = co_await connect(c);
      EXPECT_EQ(hello.version, version);
      json::object args{{"message", "v"}};
      const auto echo = co_await c.call_tool("echo", args);
      EXPECT_EQ(first_text(echo), "Echo: v");
      co_await c.close();
    }, 30s);
  }
}

TEST_P(EverythingSession, UnknownToolIsAToolError) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    // This server answers an unknown tool with an error result, not a JSON-RPC error.
    const auto unknown = co_await c.call_tool("no-such-tool");
    EXPECT_TRUE(unknown.is_error);
    EXPECT_NE(unknown.text_content().find("Tool no-such-tool not found"), std::string::npos)
        << unknown.text_content();
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingSession, BadArgumentsAreAToolError) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    json::object wrong{{"message", 42}};
    const auto result = co_await c.call_tool("echo", wrong);
    EXPECT_TRUE(result.is_error);
    EXPECT_NE(result.text_content().find("Invalid arguments for tool echo"), std::string::npos)
        << result.text_content();
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingSession, UnknownMethodIsMethodNotFound) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    int code = 0;
    try {
      co_await c.request("no/such/method");
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::method_not_found);
    co_await c.ping();  // the session goes on
    co_await c.close();
  }, 30s);
}

// The server acknowledges each subscription with an info-level log message,
// which makes a deterministic probe for logging/setLevel: below the level it
// is not sent, at the level it is. Both go out on the same ordered stream, so
// once the second has arrived the first would have too.
TEST_P(EverythingSession, LoggingLevelFiltersLogMessages) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<log_message> logs;
    c.on_log([&](const log_message& m) { logs.push_back(m); });
    co_await connect(c);

    co_await c.set_logging_level(logging_level::warning);
    co_await c.subscribe("demo://quiet");
    co_await c.set_logging_level(logging_level::info);
    co_await c.subscribe("demo://loud");

    const auto mentions = [&](std::string_view uri) {
      return std::ranges::any_of(logs, [&](const log_message& m) {
        return m.data.is_string() && m.data.as_string().find(uri) != std::string::npos;
      });
    };
    const auto loud_logged = [&] { return mentions("demo://loud"); };
    const bool logged = co_await eventually(loud_logged, 5s);
    EXPECT_TRUE(logged);
    EXPECT_FALSE(mentions("demo://quiet"));
    for (const auto& m : logs) EXPECT_GE(m.level, logging_level::info) << json::serialize(m.data);
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingSession, ToggleSimulatedLoggingSendsLogMessages) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<log_message> logs;
    c.on_log([&](const log_message& m) { logs.push_back(m); });
    co_await connect(c);
    co_await c.set_logging_level(logging_level::debug);

    const auto started = co_await c.call_tool("toggle-simulated-logging");
    EXPECT_TRUE(first_text(started).starts_with("Started simulated, random-leveled logging")) << first_text(started);
    // One message at once, at a random level, then one every 5 s (the bound
    // allows for a second one).
    const auto some_log = [&] { return !logs.empty(); };
    const bool logged = co_await eventually(some_log, 7s);
    CO_ASSERT_TRUE(logged);
    EXPECT_NE(json::serialize(logs.front().data).find("message"), std::string::npos)
        << json::serialize(logs.front().data);

    const auto stopped = co_await c.call_tool("toggle-simulated-logging");
    EXPECT_TRUE(first_text(stopped).starts_with("Stopped simulated logging")) << first_text(stopped);
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingSession, every_transport(), transport_name);

// The spec's backwards compatibility: a client in automatic mode POSTs
// `initialize` to the URL, the legacy server answers 404, and the client goes
// on with HTTP+SSE from a GET of the same URL.
TEST(EverythingLegacyFallback, AutomaticModeFallsBackToHttpSse) {
  everything_http_server server(everything_transport::legacy_sse);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto url = server.url();
    auto connection = co_await connect_http(ex, std::move(url));
    mcp::client c(ex);
    const auto hello = co_await c.connect(std::move(connection));
    EXPECT_EQ(hello.server_info.name, "mcp-servers/everything");
    json::object args{{"message", "after the fallback"}};
    const auto echo = co_await c.call_tool("echo", args);
    EXPECT_EQ(first_text(echo), "Echo: after the fallback");
    co_await c.close();
  }, 30s);
}

}  // namespace
}  // namespace mcp::test
