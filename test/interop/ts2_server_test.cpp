// Our client against the official TypeScript SDK v2 server (ts2_server.mjs,
// both eras on one server), over stdio: the modern era when we offer it,
// with its multi-round requests answered by our elicitation handler, and
// the legacy handshake when we do not.

#include <mcp/client/client.hpp>
#include <mcp/transport/process.hpp>

#include "everything_server.hpp"
#include "legacy_client.hpp"
#include "test_support.hpp"

namespace mcp::test {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<message_transport> ts2_server(asio::any_io_executor ex) {
  process_options options;
  options.command = node_program();
  options.args = {std::string(CADUCEUS_INTEROP_DIR) + "/ts2_server.mjs", "--stdio"};
  options.on_stderr = [](std::string_view) {};
  options.exit_grace = 500ms;
  return spawn_process(ex, std::move(options));
}

// Answers the server's name question.
void answer_names(client& c, int& asked) {
  c.on_elicitation([&asked](json::object params) -> asio::awaitable<json::object> {
    ++asked;
    EXPECT_EQ(params.at("message"), "What is your name?");
    co_return json::object{{"action", "accept"}, {"content", {{"name", "Ada"}}}};
  });
}

TEST(Ts2Server, OurClientSpeaksTheModernEraWithIt) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex);  // the modern era first, by default
    int asked = 0;
    answer_names(c, asked);
    std::vector<std::string> changes;
    c.on_list_changed([&](std::string_view what) { changes.emplace_back(what); });
    const auto hello = co_await c.connect(ts2_server(ex));
    EXPECT_EQ(hello.version, protocol_version::v2026_07_28);

    json::object numbers{{"a", 2}, {"b", 3}};
    EXPECT_EQ((co_await c.call_tool("add", std::move(numbers))).text_content(), "5");
    EXPECT_EQ((co_await c.call_tool("ask_name")).text_content(), "Hello, Ada!");
    EXPECT_EQ(asked, 1);
    const auto contents = co_await c.read_resource("test://hello");
    EXPECT_EQ(contents.at(0).text.value_or(""), "hello");
    std::map<std::string, std::string> who{{"name", "Bob"}};
    const auto prompt = co_await c.get_prompt("greet", std::move(who));
    EXPECT_EQ(prompt.messages.at(0).content.at("text"), "Hello, Bob!");
    // The listen stream our client opened brings the change.
    co_await c.call_tool("trigger_tool_change");
    for (int i = 0; i < 200 && changes.empty(); ++i) co_await sleep_for(10ms);
    EXPECT_EQ(changes, (std::vector<std::string>{"tools"}));
    co_await c.close();
  }, 60s);
}

TEST(Ts2Server, OurLegacyClientGetsARealElicitationRequest) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_only());
    int asked = 0;
    answer_names(c, asked);
    const auto hello = co_await c.connect(ts2_server(ex));
    EXPECT_EQ(hello.version, protocol_version::v2025_11_25);
    EXPECT_EQ((co_await c.call_tool("ask_name")).text_content(), "Hello, Ada!");
    EXPECT_EQ(asked, 1);
    co_await c.close();
  }, 60s);
}

}  // namespace
}  // namespace mcp::test
