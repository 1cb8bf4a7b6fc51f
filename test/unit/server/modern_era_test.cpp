// The 2026-07-28 era over a stream (as over stdio): requests that carry
// their own envelope, served without a handshake by the same server and
// the same handlers as a legacy session.

#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>

#include "server_harness.hpp"

namespace mcp::test {
namespace {

json::object envelope(json::object capabilities = {}, std::string version = "2026-07-28") {
  return {{"io.modelcontextprotocol/protocolVersion", std::move(version)},
          {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1.0"}}},
          {"io.modelcontextprotocol/clientCapabilities", std::move(capabilities)}};
}

json::object with_envelope(json::object params, json::object capabilities = {}) {
  params["_meta"] = envelope(std::move(capabilities));
  return params;
}

json::object elicit_capability() { return {{"elicitation", json::object{}}}; }

// One handler, both eras: it asks the user through ctx.elicit().
asio::awaitable<call_tool_result> confirm(const json::object&, request_context& ctx) {
  json::object schema{{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}};
  auto answer = co_await ctx.elicit("Proceed?", std::move(schema));
  co_return call_tool_result::text("action: " + std::string(answer.at("action").as_string()));
}

std::shared_ptr<server> modern_server(server_options settings) {
  auto srv = std::make_shared<server>(implementation{"modern", "2.0"}, std::move(settings));
  srv->add_tool({"echo", "Echoes"}, [](const json::object& args, request_context&) -> asio::awaitable<call_tool_result> {
    co_return call_tool_result::text(json::serialize(args));
  });
  srv->add_tool({"confirm", "Asks first"}, confirm);
  srv->add_tool({"chatty", "Logs"}, [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
    co_await ctx.log(logging_level::debug, "debug detail");
    co_await ctx.log(logging_level::warning, "a warning");
    co_return call_tool_result::text("done");
  });
  srv->add_tool({"traced", "Reports its trace"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  co_return call_tool_result::text(ctx.trace().traceparent);
                });
  srv->add_tool({"two_rounds", "Asks twice"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  ctx.carry("first");
                  input_requests first{{"name", input_request::elicitation("Name?", {{"type", "object"}})}};
                  auto name = co_await ctx.ask(std::move(first));
                  ctx.carry("second");
                  input_requests second{{"color", input_request::elicitation("Color?", {{"type", "object"}})}};
                  auto color = co_await ctx.ask(std::move(second));
                  co_return call_tool_result::text(json::serialize(name.at("name").at("content")) +
                                                   json::serialize(color.at("color").at("content")));
                });
  resource_info doc{"file:///doc.txt", "doc"};
  doc.cache = cache_hint{std::chrono::seconds(60), true};
  srv->add_resource(doc, [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
    co_return std::vector<resource_contents>{resource_contents::from_text(uri, "hello")};
  });
  return srv;
}

// (Not a default argument: g++ 12 destroys a default argument's temporary
// twice in an expression that also co_awaits.)
std::shared_ptr<server> modern_server() { return modern_server(server_options{}); }

const json::object& result_of(const json::value& reply) { return reply.at("result").as_object(); }

TEST(ModernEra, ARequestWithItsEnvelopeIsServedWithoutAHandshake) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    auto request1 = with_envelope({{"name", "echo"}, {"arguments", {{"x", 1}}}});
    auto reply = co_await h.call(1, "tools/call", std::move(request1));
    const auto& result = result_of(reply);
    EXPECT_EQ(result.at("content").at(0).at("text"), R"({"x":1})");
    EXPECT_EQ(result.at("resultType"), "complete");
    EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("name"), "modern");
  });
}

TEST(ModernEra, DiscoverNamesTheModernVersionsCapabilitiesAndServer) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    auto request2 = with_envelope({});
    auto reply = co_await h.call(1, "server/discover", std::move(request2));
    const auto& result = result_of(reply);
    EXPECT_EQ(result.at("supportedVersions"), (json::array{"2026-07-28"}));
    EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
    EXPECT_EQ(result.at("ttlMs"), 0);
    EXPECT_EQ(result.at("cacheScope"), "private");
    EXPECT_EQ(result.at("_meta").at("io.modelcontextprotocol/serverInfo").at("version"), "2.0");
  });
}

TEST(ModernEra, EachRefusalOfTheLadderHasItsCode) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    // The first request opens the modern era of this connection.
    auto request3 = with_envelope({});
    co_await h.call(1, "server/discover", std::move(request3));
    json::object request4;
    auto missing = co_await h.call(2, "tools/list", std::move(request4));
    EXPECT_EQ(missing.at("error").at("code"), errc::invalid_params);
    EXPECT_EQ(missing.at("error").at("data").at("envelope").at("missing"), (json::array{"_meta"}));
    EXPECT_EQ(missing.at("id"), 2);

    json::object unsupported{{"_meta", envelope({}, "2099-01-01")}};
    auto version = co_await h.call(3, "tools/list", std::move(unsupported));
    EXPECT_EQ(version.at("error").at("code"), errc::unsupported_protocol_version);
    EXPECT_EQ(version.at("error").at("data").at("supported"), (json::array{"2026-07-28"}));
    EXPECT_EQ(version.at("error").at("data").at("requested"), "2099-01-01");

    for (const auto* removed : {"initialize", "ping", "logging/setLevel", "resources/subscribe"}) {
      auto request5 = with_envelope({{"uri", "file:///doc.txt"}});
      auto reply = co_await h.call(4, removed, std::move(request5));
      EXPECT_EQ(reply.at("error").at("code"), errc::method_not_found) << removed;
    }
  });
}

TEST(ModernEra, CacheableResultsCarryTheirHints) {
  run_test([]() -> asio::awaitable<void> {
    server_options settings;
    settings.cache = cache_hint{std::chrono::minutes(5), true};
    harness h(co_await asio::this_coro::executor, modern_server(std::move(settings)));
    auto request6 = with_envelope({});
    auto tools = co_await h.call(1, "tools/list", std::move(request6));
    EXPECT_EQ(result_of(tools).at("ttlMs"), 300000);
    EXPECT_EQ(result_of(tools).at("cacheScope"), "public");
    // A page is as fresh as its stalest item.
    auto request7 = with_envelope({});
    auto resources = co_await h.call(2, "resources/list", std::move(request7));
    EXPECT_EQ(result_of(resources).at("ttlMs"), 60000);
    auto request8 = with_envelope({{"uri", "file:///doc.txt"}});
    auto read = co_await h.call(3, "resources/read", std::move(request8));
    EXPECT_EQ(result_of(read).at("ttlMs"), 60000);
    EXPECT_EQ(result_of(read).at("cacheScope"), "public");
    // A legacy session sees none of it.
    harness legacy(co_await asio::this_coro::executor, modern_server());
    co_await legacy.initialize();
    auto old = co_await legacy.call(1, "tools/list");
    EXPECT_FALSE(result_of(old).contains("ttlMs"));
    EXPECT_FALSE(result_of(old).contains("resultType"));
  });
}

TEST(ModernEra, OneHandlerAsksALegacyClientDirectlyAndAModernOneByRounds) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // Legacy: the handler's elicit() is a request to the client.
    harness legacy(ex, modern_server());
    co_await legacy.initialize("2025-11-25", elicit_capability());
    auto message15 = rpc_request(1, "tools/call", {{"name", "confirm"}});
    co_await write_json(*legacy.client, message15);
    auto asked = co_await read_json(*legacy.client);
    EXPECT_EQ(asked.at("method"), "elicitation/create");
    json::object accepted{{"jsonrpc", "2.0"},
                          {"id", asked.at("id")},
                          {"result", {{"action", "accept"}, {"content", {{"ok", true}}}}}};
    co_await write_json(*legacy.client, accepted);
    auto done = co_await legacy.reply_to(1);
    EXPECT_EQ(result_of(done).at("content").at(0).at("text"), "action: accept");

    // Modern: the same handler ends its first round with input_required ...
    harness modern(ex, modern_server());
    auto request9 = with_envelope({{"name", "confirm"}}, elicit_capability());
    auto first = co_await modern.call(1, "tools/call", std::move(request9));
    const auto& round = result_of(first);
    EXPECT_EQ(round.at("resultType"), "input_required");
    EXPECT_EQ(round.at("inputRequests").as_object().size(), 1u);
    const auto& [key, request] = *round.at("inputRequests").as_object().begin();
    EXPECT_EQ(request.at("method"), "elicitation/create");
    EXPECT_EQ(request.at("params").at("message"), "Proceed?");
    // ... and completes when the retry brings the answer.
    json::object answers{{key, {{"action", "decline"}}}};
    auto retry = with_envelope({{"name", "confirm"}, {"inputResponses", answers}}, elicit_capability());
    auto second = co_await modern.call(2, "tools/call", std::move(retry));
    EXPECT_EQ(result_of(second).at("resultType"), "complete");
    EXPECT_EQ(result_of(second).at("content").at(0).at("text"), "action: decline");
  });
}

TEST(ModernEra, ARequestStateCarriesEarlierRoundsAndRefusesAlteration) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    const auto call = [](json::object extra) {
      extra["name"] = "two_rounds";
      return with_envelope(std::move(extra), elicit_capability());
    };
    auto request10 = call({});
    auto first = co_await h.call(1, "tools/call", std::move(request10));
    const auto state1 = result_of(first).at("requestState").as_string();
    EXPECT_TRUE(result_of(first).at("inputRequests").as_object().contains("name"));

    json::object name{{"name", {{"action", "accept"}, {"content", {{"v", "Ada"}}}}}};
    auto request11 = call({{"inputResponses", name}, {"requestState", state1}});
    auto second = co_await h.call(2, "tools/call", std::move(request11));
    const auto& round2 = result_of(second);
    EXPECT_TRUE(round2.at("inputRequests").as_object().contains("color"));
    const auto state2 = round2.at("requestState").as_string();
    EXPECT_NE(state1, state2);

    // The last round sends only its own answer: the first comes from the state.
    json::object color{{"color", {{"action", "accept"}, {"content", {{"v", "red"}}}}}};
    auto request12 = call({{"inputResponses", color}, {"requestState", state2}});
    auto third = co_await h.call(3, "tools/call", std::move(request12));
    EXPECT_EQ(result_of(third).at("content").at(0).at("text"), R"({"v":"Ada"}{"v":"red"})");

    std::string altered(state2);
    altered.back() = altered.back() == 'A' ? 'B' : 'A';
    auto request13 = call({{"inputResponses", color}, {"requestState", altered}});
    auto refused = co_await h.call(4, "tools/call", std::move(request13));
    EXPECT_EQ(refused.at("error").at("code"), errc::invalid_params);
    // Nor is a state good for another tool's request.
    auto elsewhere = with_envelope({{"name", "confirm"}, {"requestState", state2}}, elicit_capability());
    auto foreign = co_await h.call(5, "tools/call", std::move(elsewhere));
    EXPECT_EQ(foreign.at("error").at("code"), errc::invalid_params);
  });
}

TEST(ModernEra, InputTheClientCannotGiveIsRefusedWithItsCapability) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    auto request14 = with_envelope({{"name", "confirm"}});
    auto reply = co_await h.call(1, "tools/call", std::move(request14));
    EXPECT_EQ(reply.at("error").at("code"), errc::missing_client_capability);
    EXPECT_EQ(reply.at("error").at("data").at("requiredCapabilities"),
              (json::object{{"elicitation", json::object{}}}));
  });
}

TEST(ModernEra, LogMessagesGoOutOnlyAtTheLevelTheRequestAsks) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    std::vector<json::value> notes;
    auto message17 = rpc_request(1, "tools/call", with_envelope({{"name", "chatty"}}));
    co_await write_json(*h.client, message17);
    co_await h.reply_to(1, &notes);
    EXPECT_TRUE(notes.empty());

    auto params = with_envelope({{"name", "chatty"}});
    params["_meta"].as_object()["io.modelcontextprotocol/logLevel"] = "info";
    auto message18 = rpc_request(2, "tools/call", std::move(params));
    co_await write_json(*h.client, message18);
    co_await h.reply_to(2, &notes);
    EXPECT_EQ(notes.size(), 1u);
    if (!notes.empty()) {
      EXPECT_EQ(notes[0].at("params").at("level"), "warning");
    }
  });
}

TEST(ModernEra, TheHandlerSeesTheRequestsTraceContext) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, modern_server());
    const std::string traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
    auto params = with_envelope({{"name", "traced"}});
    params["_meta"].as_object()["traceparent"] = traceparent;
    auto reply = co_await h.call(1, "tools/call", std::move(params));
    EXPECT_EQ(result_of(reply).at("content").at(0).at("text").as_string(), traceparent);
  });
}

TEST(ModernEra, ListenAcknowledgesThenDeliversOnlyWhatItAskedForTagged) {
  run_test([]() -> asio::awaitable<void> {
    auto srv = modern_server();
    harness h(co_await asio::this_coro::executor, srv);
    json::object filter{{"toolsListChanged", true}, {"resourceSubscriptions", json::array{"file:///doc.txt"}}};
    auto message19 = rpc_request(9, "subscriptions/listen", with_envelope({{"notifications", filter}}));
    co_await write_json(*h.client, message19);
    auto ack = co_await read_json(*h.client);
    EXPECT_EQ(ack.at("method"), "notifications/subscriptions/acknowledged");
    EXPECT_EQ(ack.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 9);
    EXPECT_EQ(ack.at("params").at("notifications"), filter);

    srv->notify_prompts_changed();  // not asked for
    srv->notify_resource_updated("file:///other.txt");
    srv->notify_tools_changed();
    srv->notify_resource_updated("file:///doc.txt");
    auto tools = co_await read_json(*h.client);
    EXPECT_EQ(tools.at("method"), "notifications/tools/list_changed");
    EXPECT_EQ(tools.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId"), 9);
    auto updated = co_await read_json(*h.client);
    EXPECT_EQ(updated.at("method"), "notifications/resources/updated");
    EXPECT_EQ(updated.at("params").at("uri"), "file:///doc.txt");

    // Cancelled by the client: the stream ends without an answer.
    auto message20 = rpc_notification("notifications/cancelled", {{"requestId", 9}});
    co_await write_json(*h.client, message20);
    co_await sleep_for(std::chrono::milliseconds(20));
    srv->notify_tools_changed();
    EXPECT_TRUE(co_await stays_silent(*h.client, std::chrono::milliseconds(100)));
  });
}

// Our client in the modern era against our server: no handshake, and the
// input a tool asks for comes from the client's own elicitation handler.
TEST(ModernEra, OurClientSpeaksItAndAnswersInputRounds) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto srv = modern_server();
    auto [client_end, server_end] = make_memory_pair(ex);
    bool served = false;
    asio::co_spawn(ex, serve(*srv, *server_end), [&](std::exception_ptr) { served = true; });
    client_options options;
    options.versions.assign(all_versions().begin(), all_versions().end());
    client c(ex, std::move(options));
    int asked = 0;
    c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
      ++asked;
      co_return json::object{{"action", "accept"}, {"content", {{"v", params.at("message")}}}};
    });
    std::vector<std::string> changes;
    c.on_list_changed([&](std::string_view what) { changes.emplace_back(what); });
    const auto hello = co_await c.connect(std::move(client_end));
    EXPECT_EQ(hello.version, protocol_version::v2026_07_28);
    EXPECT_EQ(hello.server_info.name, "modern");

    const auto rounds = co_await c.call_tool("two_rounds");
    EXPECT_EQ(rounds.text_content(), R"({"v":"Name?"}{"v":"Color?"})");
    EXPECT_EQ(asked, 2);
    // Change notifications arrive through the listen stream it opened.
    co_await sleep_for(std::chrono::milliseconds(20));
    srv->notify_tools_changed();
    for (int i = 0; i < 50 && changes.empty(); ++i) co_await sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(changes, (std::vector<std::string>{"tools"}));
    co_await c.close();
    while (!served) co_await sleep_for(std::chrono::milliseconds(5));
  });
}

}  // namespace
}  // namespace mcp::test
