// What server-everything asks our client, over every transport: sampling,
// elicitation (form and URL mode) and roots. It lists the tools that ask
// only to clients that declared the capability.

#include "everything_fixture.hpp"

#include <algorithm>

namespace mcp::test {
namespace {

class EverythingServerRequests : public everything_test {};

bool lists(const std::vector<tool_info>& tools, std::string_view name) {
  return std::ranges::any_of(tools, [&](const tool_info& t) { return t.name == name; });
}

asio::awaitable<json::object> decline(json::object) {
  json::object answer{{"action", "decline"}};
  co_return answer;
}

TEST_P(EverythingServerRequests, ToolsFollowTheCapabilitiesWeDeclare) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    c.on_sampling([](json::object) -> asio::awaitable<json::object> { co_return json::object(); });
    c.on_elicitation(decline);
    std::vector<root> roots{{"file:///tmp"}};
    c.set_roots(roots);
    co_await connect(c);
    const auto tools = co_await c.list_tools();
    for (const auto* name : {"trigger-sampling-request", "trigger-elicitation-request", "trigger-url-elicitation",
                             "get-roots-list"})
      EXPECT_TRUE(lists(tools, name)) << name;
    // These need client-side tasks as well.
    EXPECT_FALSE(lists(tools, "trigger-sampling-request-async"));
    EXPECT_FALSE(lists(tools, "trigger-elicitation-request-async"));
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingServerRequests, SamplingRelaysOurModelsAnswer) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<json::object> asked;
    const json::object answer{{"role", "assistant"},
                              {"content", {{"type", "text"}, {"text", "Paris, of course."}}},
                              {"model", "caduceus-test-model"},
                              {"stopReason", "endTurn"}};
    c.on_sampling([&](json::object params) -> asio::awaitable<json::object> {
      asked.push_back(params);
      co_return answer;
    });
    co_await connect(c);

    json::object args{{"prompt", "Capital of France?"}, {"maxTokens", 20}};
    const auto result = co_await c.call_tool("trigger-sampling-request", args);
    CO_ASSERT_TRUE(asked.size() == 1);
    EXPECT_EQ(asked[0].at("messages").at(0).at("content").at("text"),
              "Resource trigger-sampling-request context: Capital of France?");
    EXPECT_EQ(asked[0].at("maxTokens"), 20);
    EXPECT_EQ(asked[0].at("systemPrompt"), "You are a helpful test server.");

    const std::string prefix = "LLM sampling result: \n";
    const auto text = first_text(result);
    CO_ASSERT_TRUE(text.starts_with(prefix));
    EXPECT_EQ(json::parse(text.substr(prefix.size())), answer);
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingServerRequests, ElicitationFormGetsOurAnswerAndTheSchemaDefaults) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<json::object> asked;
    c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
      asked.push_back(params);
      json::object answer{{"action", "accept"},
                          {"content", {{"name", "Ada Lovelace"}, {"check", true}, {"email", "ada@example.com"}}}};
      co_return answer;
    });
    co_await connect(c);

    const auto result = co_await c.call_tool("trigger-elicitation-request");
    CO_ASSERT_TRUE(asked.size() == 1);
    EXPECT_EQ(asked[0].at("message"), "Please provide inputs for the following fields:");
    EXPECT_EQ(asked[0].at("requestedSchema").at("required"), json::value(json::array{"name"}));
    const auto lines = texts(result);
    CO_ASSERT_TRUE(lines.size() == 3);
    EXPECT_EQ(lines[0], "✅ User provided the requested information!");
    // The integer and the number come from the schema's defaults (SEP-1034).
    EXPECT_EQ(lines[1],
              "User inputs:\n- Name: Ada Lovelace\n- Agreed to terms: true\n- Email: ada@example.com\n"
              "- Favorite Integer: 42\n- Favorite Number: 3.14");
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingServerRequests, ElicitationDeclined) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    c.on_elicitation(decline);
    co_await connect(c);
    const auto result = co_await c.call_tool("trigger-elicitation-request");
    EXPECT_EQ(first_text(result), "❌ User declined to provide the requested information.");
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingServerRequests, UrlElicitationByRequest) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<json::object> asked;
    c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
      asked.push_back(params);
      json::object answer{{"action", "accept"}};
      co_return answer;
    });
    co_await connect(c);
    json::object args{{"url", "https://example.com/consent"}, {"elicitationId", "consent-1"}};
    const auto result = co_await c.call_tool("trigger-url-elicitation", args);
    CO_ASSERT_TRUE(asked.size() == 1);
    EXPECT_EQ(asked[0].at("mode"), "url");
    EXPECT_EQ(asked[0].at("url"), "https://example.com/consent");
    EXPECT_EQ(asked[0].at("elicitationId"), "consent-1");
    EXPECT_EQ(first_text(result),
              "✅ User completed the URL elicitation flow.\nElicitation ID: consent-1\nURL: https://example.com/consent");
    co_await c.close();
  }, 30s);
}

// The other way to ask for a URL: the call fails with -32042 naming the page
// to open first; the same call made again then goes through.
TEST_P(EverythingServerRequests, UrlElicitationRequiredError) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    int asked = 0;
    c.on_elicitation([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      json::object answer{{"action", "accept"}};
      co_return answer;
    });
    co_await connect(c);
    json::object args{{"url", "https://example.com/authorize"}, {"errorPath", true}};
    std::optional<rpc_error> error;
    try {
      co_await c.call_tool("trigger-url-elicitation", args);
    } catch (const protocol_error& e) {
      error = e.error();
    }
    CO_ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, -32042);
    const auto& first = error->data.at("elicitations").at(0);
    EXPECT_EQ(first.at("mode"), "url");
    EXPECT_EQ(first.at("url"), "https://modelcontextprotocol.io");
    EXPECT_EQ(asked, 0);

    const auto retried = co_await c.call_tool("trigger-url-elicitation", args);
    EXPECT_EQ(asked, 1);
    EXPECT_TRUE(first_text(retried).starts_with("✅ User completed the URL elicitation flow.")) << first_text(retried);
    co_await c.close();
  }, 30s);
}

/// Whether the server logged that it received `count` roots.
auto roots_updated(const std::vector<std::string>& logs, int count) {
  return [&logs, line = "Roots updated: " + std::to_string(count) + " root(s) received from client"] {
    return std::ranges::find(logs, line) != logs.end();
  };
}

// The server asks for our roots 350 ms after the handshake, and again each
// time we say they changed; it logs each answer and get-roots-list shows the
// last one. (The test waits for the first answer: over Streamable HTTP the
// server's own requests go on the GET stream, which may not be open yet
// right after the handshake.)
TEST_P(EverythingServerRequests, RootsListedAndUpdated) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<std::string> logs;
    c.on_log([&](const log_message& m) {
      if (m.logger == "everything-server" && m.data.is_string()) logs.emplace_back(m.data.as_string());
    });
    std::vector<root> two{{"file:///work/project", "project"}, {"file:///tmp/scratch"}};
    c.set_roots(two);
    co_await connect(c);

    const auto got_two = roots_updated(logs, 2);
    const bool asked = co_await eventually(got_two, 5s);
    CO_ASSERT_TRUE(asked);
    const auto listed = co_await c.call_tool("get-roots-list");
    EXPECT_TRUE(first_text(listed).starts_with("Current MCP Roots (2 total):\n\n"
                                               "1. project\n   URI: file:///work/project\n\n"
                                               "2. Unnamed Root\n   URI: file:///tmp/scratch\n\n"))
        << first_text(listed);

    std::vector<root> one{{"file:///srv/data", "data"}};
    c.set_roots(one);
    const auto got_one = roots_updated(logs, 1);
    const bool asked_again = co_await eventually(got_one, 5s);
    CO_ASSERT_TRUE(asked_again);
    const auto relisted = co_await c.call_tool("get-roots-list");
    EXPECT_TRUE(first_text(relisted).starts_with("Current MCP Roots (1 total):\n\n1. data\n   URI: file:///srv/data"))
        << first_text(relisted);
    co_await c.close();
  }, 30s);
}

// trigger-*-async ask the client to run the request as a task. Our client has
// no client-side tasks; declaring the capability shows that the server takes
// a direct answer from our handlers instead (the fallback its tools allow).
TEST_P(EverythingServerRequests, AsyncToolsTakeADirectAnswer) {
  run_test([this]() -> asio::awaitable<void> {
    client_options options;
    options.capabilities = {
        {"tasks", {{"requests", {{"sampling", {{"createMessage", json::object()}}},
                                 {"elicitation", {{"create", json::object()}}}}}}}};
    mcp::client c(co_await asio::this_coro::executor, options);
    c.on_sampling([](json::object params) -> asio::awaitable<json::object> {
      EXPECT_TRUE(params.contains("task"));
      json::object answer{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "direct"}}}, {"model", "m"}};
      co_return answer;
    });
    c.on_elicitation(decline);
    co_await connect(c);

    json::object prompt{{"prompt", "hi"}};
    const auto sampled = co_await c.call_tool("trigger-sampling-request-async", prompt);
    EXPECT_TRUE(first_text(sampled).starts_with("[SYNC] Client executed synchronously:")) << first_text(sampled);
    EXPECT_NE(first_text(sampled).find("\"direct\""), std::string::npos) << first_text(sampled);

    const auto elicited = co_await c.call_tool("trigger-elicitation-request-async");
    EXPECT_TRUE(first_text(elicited).starts_with("[SYNC] Client executed synchronously:")) << first_text(elicited);
    EXPECT_NE(first_text(elicited).find("\"decline\""), std::string::npos) << first_text(elicited);
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingServerRequests, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
