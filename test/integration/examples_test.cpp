// Every example server, spawned as a user would run it, answers over stdio.

#include <mcp/client/client.hpp>
#include <mcp/transport/process.hpp>

#include "child_process.hpp"
#include "test_support.hpp"
#include "legacy_client.hpp"

namespace mcp::test {
namespace {


// Connects to `name` and hands the client to `check`.
void with_example(std::string name, std::function<asio::awaitable<void>(mcp::client&)> check) {
  run_test([name, check]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    const auto command = bin_command(name);
    co_await c.connect(spawn_process(ex, command));
    co_await check(c);
    co_await c.close();
  });
}

TEST(Examples, TypedTool) {
  with_example("typed-tool", [](mcp::client& c) -> asio::awaitable<void> {
    json::object args{{"city", "Oslo"}, {"days", 2}};
    auto result = co_await c.call_tool("forecast", args);
    CO_ASSERT_TRUE(result.structured_content.has_value());
    EXPECT_EQ(result.structured_content->at("summary"), "2 mild days in Oslo");
  });
}

TEST(Examples, WeatherClientGetsATypedForecast) {
  const auto run = run_command({test_program("weather-client"), test_program("typed-tool")});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "3 mild days in Paris, 10 to 20 degrees\n");
}

TEST(Examples, PlainMainServesAndCallsWithoutAnEventLoop) {
  const auto run = run_command({test_program("plain-main")});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("connected to plain-main at http://127.0.0.1:"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("old pond / a frog jumps in / the sound of water\n"), std::string::npos) << run.out;
}

TEST(Examples, ProgressTool) {
  with_example("progress-tool", [](mcp::client& c) -> asio::awaitable<void> {
    int updates = 0;
    call_options options;
    options.on_progress = [&](const progress_update&) { ++updates; };
    json::object args{{"to", 2}};
    auto result = co_await c.call_tool("count", args, options);
    EXPECT_EQ(first_text(result), "counted to 2");
    EXPECT_EQ(updates, 2);
  });
}

TEST(Examples, ResourceTemplate) {
  with_example("resource-template", [](mcp::client& c) -> asio::awaitable<void> {
    auto contents = co_await c.read_resource("notes://todo");
    CO_ASSERT_TRUE(contents.size() == 1u && contents.front().text.has_value());
    auto note = json::parse(*contents.front().text);
    EXPECT_EQ(note.at("name"), "todo");
  });
}

TEST(Examples, Prompt) {
  with_example("prompt", [](mcp::client& c) -> asio::awaitable<void> {
    std::map<std::string, std::string> arguments{{"code", "int x;"}, {"language", "c"}};
    auto result = co_await c.get_prompt("review", arguments);
    CO_ASSERT_TRUE(result.messages.size() == 1u);
    EXPECT_EQ(result.messages.front().content.at("text"), "Please review this c:\n\nint x;");
  });
}

TEST(Examples, SamplingToolRefusesAClientWithoutSampling) {
  with_example("sampling-tool", [](mcp::client& c) -> asio::awaitable<void> {
    json::object args{{"topic", "rain"}};
    auto result = co_await c.call_tool("haiku", args);
    EXPECT_TRUE(result.is_error);
  });
}

TEST(Examples, EverythingServerEchoAndAdd) {
  with_example("everything-server", [](mcp::client& c) -> asio::awaitable<void> {
    json::object echo{{"text", "hi"}};
    auto said = co_await c.call_tool("echo", echo);
    EXPECT_EQ(first_text(said), "hi");
    json::object add{{"a", 2}, {"b", 3}};
    auto sum = co_await c.call_tool("add", add);
    EXPECT_EQ(first_text(sum), "5");
    CO_ASSERT_TRUE(sum.structured_content.has_value());
    EXPECT_EQ(sum.structured_content->at("sum"), 5.0);
  });
}

TEST(Examples, ConformanceServerListsItsFixtures) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    auto command = bin_command("conformance-server");
    command.args = {"--stdio"};
    co_await c.connect(spawn_process(ex, command));
    auto tools = co_await c.list_tools();
    EXPECT_GE(tools.size(), 14u);
    co_await c.close();
  });
}

}  // namespace
}  // namespace mcp::test
