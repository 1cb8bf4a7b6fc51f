// Our client against the official TypeScript "everything" server over stdio:
// a peer we did not write.

#include <mcp/client/client.hpp>
#include <mcp/transport/process.hpp>

#include "test_support.hpp"

#include <set>

namespace mcp::test {
namespace {

process_options everything_server() {
  process_options options;
  options.command = "node";
  options.args = {std::string(CADUCEUS_INTEROP_DIR) +
                      "/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                  "stdio"};
  options.on_stderr = [](std::string_view) {};  // its start-up banner is noise here
  return options;
}

TEST(EverythingServer, HandshakeToolsAndCalls) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex);
    const auto command = everything_server();
    auto hello = co_await c.connect(spawn_process(ex, command));
    EXPECT_EQ(hello.version, protocol_version::v2025_11_25);
    EXPECT_FALSE(hello.server_info.name.empty());
    EXPECT_TRUE(hello.capabilities.contains("tools"));

    auto tools = co_await c.list_tools();
    std::set<std::string> names;
    for (const auto& tool : tools) names.insert(tool.name);
    EXPECT_TRUE(names.contains("echo"));
    EXPECT_TRUE(names.contains("get-sum"));

    json::object echo_args{{"message", "hello from C++"}};
    auto echo = co_await c.call_tool("echo", echo_args);
    EXPECT_EQ(first_text(echo), "Echo: hello from C++");

    json::object sum_args{{"a", 2}, {"b", 3}};
    auto sum = co_await c.call_tool("get-sum", sum_args);
    EXPECT_EQ(first_text(sum), "The sum of 2 and 3 is 5.");

    co_await c.ping();
    co_await c.close();
  }, 60s);
}

TEST(EverythingServer, ProgressOfALongRunningTool) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex);
    const auto command = everything_server();
    co_await c.connect(spawn_process(ex, command));
    std::vector<double> progress;
    call_options options;
    options.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
    json::object args{{"duration", 1}, {"steps", 4}};
    auto result = co_await c.call_tool("trigger-long-running-operation", args, options);
    EXPECT_NE(first_text(result).find("Long running operation completed"), std::string::npos);
    EXPECT_EQ(progress, (std::vector<double>{1, 2, 3, 4}));
    co_await c.close();
  }, 60s);
}

TEST(EverythingServer, UnknownMethodAndToolErrors) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex);
    const auto command = everything_server();
    co_await c.connect(spawn_process(ex, command));
    int code = 0;
    try {
      co_await c.request("no/such/method");
    } catch (const protocol_error& e) {
      code = e.code();
    }
    EXPECT_EQ(code, errc::method_not_found);
    // This server reports an unknown tool as a tool error result.
    auto unknown = co_await c.call_tool("no-such-tool");
    EXPECT_TRUE(unknown.is_error);
    co_await c.close();
  }, 60s);
}

TEST(EverythingServer, NegotiatesEachLegacyVersion) {
  for (auto version : legacy_versions()) {
    run_test([version]() -> asio::awaitable<void> {
      auto ex = co_await asio::this_coro::executor;
      client_options options;
      options.versions = {version};
      mcp::client c(ex, options);
      const auto command = everything_server();
      auto hello = co_await c.connect(spawn_process(ex, command));
      EXPECT_EQ(hello.version, version);
      auto tools = co_await c.list_tools();
      EXPECT_FALSE(tools.empty());
      co_await c.close();
    }, 60s);
  }
}

}  // namespace
}  // namespace mcp::test
