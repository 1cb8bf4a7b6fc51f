// The client's typed calls, callbacks and answers to server requests,
// against our own high-level server over a memory pair.

#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "legacy_client.hpp"
#include "memory_server_client.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/steady_timer.hpp>

namespace mcp::test {
namespace {

// A server that also records the notifications it gets.
class recording_server : public mcp::server {
 public:
  recording_server() : mcp::server({"features", "1.0"}, settings()) {}
  static server_options settings() {
    server_options s;
    s.page_size = 2;  // every list takes several pages
    return s;
  }
  asio::awaitable<void> handle_notification(const notification& n, session& s) override {
    notifications.push_back(n.method);
    co_await mcp::server::handle_notification(n, s);
  }
  std::vector<std::string> notifications;
};

using test_body = std::function<asio::awaitable<void>(recording_server&, mcp::client&)>;

// Serves a recording_server set up by `setup` to a client set up by
// `prepare` (memory_server_client.hpp), and runs `body`.
void with_client(std::function<void(recording_server&)> setup, std::function<void(mcp::client&)> prepare,
                 test_body body, client_options options) {
  recording_server srv;
  setup(srv);
  serve_and_connect(srv, std::move(options), std::move(prepare), [&](mcp::client& c) { return body(srv, c); });
}

void with_client(std::function<void(recording_server&)> setup, std::function<void(mcp::client&)> prepare,
                 test_body body) {
  with_client(std::move(setup), std::move(prepare), std::move(body), client_options{});
}

// Server-to-client requests with their own timeouts and cancellation, and
// refusals of the client: legacy sessions (2026-07-28 asks by input rounds).
void with_legacy_client(std::function<void(recording_server&)> setup, std::function<void(mcp::client&)> prepare,
                        test_body body) {
  with_client(std::move(setup), std::move(prepare), std::move(body), legacy_only());
}

tool_info named_tool(std::string name) {
  tool_info info;
  info.name = std::move(name);
  info.description = "a tool";
  return info;
}

asio::awaitable<call_tool_result> says(std::string text) { co_return call_tool_result::text(std::move(text)); }

TEST(ClientFeatures, ListsFollowEveryPage) {
  with_client(
      [](recording_server& srv) {
        for (int i = 0; i < 5; ++i)
          srv.add_tool(named_tool("tool" + std::to_string(i)),
                       [](const json::object&, request_context&) { return says("x"); });
        for (int i = 0; i < 3; ++i) {
          resource_info r{"mem://r" + std::to_string(i), "r" + std::to_string(i)};
          srv.add_resource(r, [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
            co_return std::vector<resource_contents>{resource_contents::from_text(uri, "contents of " + uri)};
          });
        }
        for (int i = 0; i < 3; ++i)
          srv.add_prompt("p" + std::to_string(i), "a prompt", [] { return std::string("hi"); });
      },
      [](mcp::client&) {},
      [](recording_server&, mcp::client& c) -> asio::awaitable<void> {
        const auto tools = co_await c.list_tools();
        EXPECT_EQ(tools.size(), 5u);
        const auto resources = co_await c.list_resources();
        EXPECT_EQ(resources.size(), 3u);
        const auto prompts = co_await c.list_prompts();
        EXPECT_EQ(prompts.size(), 3u);
        const auto contents = co_await c.read_resource("mem://r1");
        CO_ASSERT_TRUE(contents.size() == 1u);
        EXPECT_EQ(contents.front().text, "contents of mem://r1");
      });
}

TEST(ClientFeatures, ServerRequestsAreAnsweredByTheHandlersWhoseCapabilitiesAreDeclared) {
  with_client(
      [](recording_server& srv) {
        srv.add_tool(named_tool("ask"), [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          const auto& caps = ctx.session().client_capabilities();
          EXPECT_TRUE(caps.contains("sampling"));
          EXPECT_TRUE(caps.contains("elicitation"));
          EXPECT_TRUE(caps.contains("roots"));
          json::object message{{"role", "user"}, {"content", json::object{{"type", "text"}, {"text", "2+2?"}}}};
          json::object params{{"messages", json::array{message}}, {"maxTokens", 10}};
          const auto sampled = co_await ctx.sample(std::move(params));
          const auto roots = co_await ctx.roots();
          co_return call_tool_result::text(std::string(sampled.at("content").at("text").as_string()) + " / " +
                                           std::string(roots.at(0).at("uri").as_string()));
        });
      },
      [](mcp::client& c) {
        c.on_sampling([](json::object params) -> asio::awaitable<json::object> {
          EXPECT_EQ(params.at("maxTokens"), 10);
          co_return json::object{{"role", "assistant"},
                                 {"content", json::object{{"type", "text"}, {"text", "4"}}},
                                 {"model", "test-model"}};
        });
        c.on_elicitation([](json::object) -> asio::awaitable<json::object> {
          co_return json::object{{"action", "decline"}};
        });
        std::vector<root> roots{root{"file:///work", "work"}};
        c.set_roots(std::move(roots));
      },
      [](recording_server&, mcp::client& c) -> asio::awaitable<void> {
        const auto result = co_await c.call_tool("ask");
        EXPECT_FALSE(result.is_error) << result.text_content();
        EXPECT_EQ(result.text_content(), "4 / file:///work");
      });
}

TEST(ClientFeatures, AcceptedFormsGetTheSchemaDefaults) {
  with_client(
      [](recording_server& srv) {
        srv.add_tool(named_tool("form"), [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          json::object schema = json::parse(R"({"type":"object","properties":{
              "name":{"type":"string"},
              "color":{"type":"string","default":"green"},
              "size":{"type":"integer","default":7}},"required":["name"]})").as_object();
          const auto answer = co_await ctx.elicit("Your preferences?", std::move(schema));
          co_return call_tool_result::text(json::serialize(answer.at("content")));
        });
      },
      [](mcp::client& c) {
        c.on_elicitation([](json::object params) -> asio::awaitable<json::object> {
          EXPECT_EQ(params.at("message"), "Your preferences?");
          co_return json::object{{"action", "accept"}, {"content", json::object{{"name", "Ada"}, {"size", 9}}}};
        });
      },
      [](recording_server&, mcp::client& c) -> asio::awaitable<void> {
        const auto result = co_await c.call_tool("form");
        const auto content = json::parse(result.text_content());
        EXPECT_EQ(content.at("name"), "Ada");
        EXPECT_EQ(content.at("color"), "green") << "a default the user left out";
        EXPECT_EQ(content.at("size"), 9) << "what the user gave stays";
      });
}

TEST(ClientFeatures, ServerRequestWithoutAHandlerIsRefused) {
  with_legacy_client(
      [](recording_server& srv) {
        srv.add_tool(named_tool("ask"), [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          EXPECT_FALSE(ctx.session().client_capabilities().contains("sampling"));
          int code = 0;
          try {
            json::object params{{"messages", json::array()}, {"maxTokens", 1}};
            co_await ctx.request("sampling/createMessage", std::move(params));
          } catch (const protocol_error& e) {
            code = e.error().code;
          }
          co_return call_tool_result::text(std::to_string(code));
        });
      },
      [](mcp::client&) {},
      [](recording_server&, mcp::client& c) -> asio::awaitable<void> {
        const auto result = co_await c.call_tool("ask");
        EXPECT_EQ(result.text_content(), std::to_string(errc::method_not_found));
      });
}

TEST(ClientFeatures, ServerCancelsARequestItGaveUpOn) {
  auto cancelled = std::make_shared<bool>(false);
  with_legacy_client(
      [](recording_server& srv) {
        srv.add_tool(named_tool("impatient"), [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          json::object schema{{"type", "object"}};
          try {
            co_await ctx.elicit("Still there?", std::move(schema), std::chrono::milliseconds(100));
          } catch (const std::exception&) {
            co_return call_tool_result::text("gave up");
          }
          co_return call_tool_result::text("answered");
        });
      },
      [cancelled](mcp::client& c) {
        c.on_elicitation([cancelled](json::object) -> asio::awaitable<json::object> {
          asio::steady_timer user(co_await asio::this_coro::executor, std::chrono::seconds(5));
          auto [ec] = co_await user.async_wait(asio::as_tuple(asio::use_awaitable));
          *cancelled = ec == asio::error::operation_aborted;
          co_return json::object{{"action", "cancel"}};
        });
      },
      [cancelled](recording_server&, mcp::client& c) -> asio::awaitable<void> {
        const auto result = co_await c.call_tool("impatient");
        EXPECT_EQ(result.text_content(), "gave up");
        for (int i = 0; i < 100 && !*cancelled; ++i) co_await sleep_for(std::chrono::milliseconds(5));
        EXPECT_TRUE(*cancelled) << "the handler was cancelled when the server sent notifications/cancelled";
      });
}

TEST(ClientFeatures, NotificationsReachTheirCallbacks) {
  struct seen {
    std::vector<log_message> logs;
    std::vector<std::string> changed;
    std::vector<std::string> updated;
  };
  auto got = std::make_shared<seen>();
  with_client(
      [](recording_server& srv) {
        srv.add_tool(named_tool("chatty"), [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          const json::value quiet = "too detailed";
          co_await ctx.log(logging_level::debug, quiet, "chatty");
          const json::value loud = "something is off";
          co_await ctx.log(logging_level::warning, loud, "chatty");
          co_return call_tool_result::text("done");
        });
        resource_info r{"mem://watched", "watched"};
        srv.add_resource(r, [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
          co_return std::vector<resource_contents>{resource_contents::from_text(uri, "v1")};
        });
      },
      [got](mcp::client& c) {
        c.on_log([got](const log_message& m) { got->logs.push_back(m); });
        c.on_list_changed([got](std::string_view what) { got->changed.emplace_back(what); });
        c.on_resource_updated([got](const std::string& uri) { got->updated.push_back(uri); });
      },
      [got](recording_server& srv, mcp::client& c) -> asio::awaitable<void> {
        co_await c.set_logging_level(logging_level::info);
        co_await c.call_tool("chatty");
        CO_ASSERT_TRUE(got->logs.size() == 1u);
        EXPECT_EQ(got->logs.front().level, logging_level::warning);
        EXPECT_EQ(got->logs.front().logger, "chatty");
        EXPECT_EQ(got->logs.front().data, "something is off");

        co_await c.subscribe("mem://watched");
        srv.notify_resource_updated("mem://watched");
        srv.add_tool(named_tool("late"), [](const json::object&, request_context&) { return says("late"); });
        for (int i = 0; i < 100 && (got->updated.empty() || got->changed.empty()); ++i)
          co_await sleep_for(std::chrono::milliseconds(5));
        EXPECT_EQ(got->updated, std::vector<std::string>{"mem://watched"});
        EXPECT_EQ(got->changed, std::vector<std::string>{"tools"});
        co_await c.unsubscribe("mem://watched");
      });
}

TEST(ClientFeatures, CompletionsAreTyped) {
  with_client(
      [](recording_server& srv) {
        prompt_info greet{"greet", "Greets", {prompt_argument{"name", "who", true}}};
        srv.add_prompt(greet, [](const prompt_arguments& a, request_context&) -> asio::awaitable<get_prompt_result> {
          get_prompt_result result;
          result.messages.push_back({"user", content::text("Hello " + a.at("name"))});
          co_return result;
        });
        srv.add_prompt_completion("greet", "name",
                                  [](const completion_request& r, request_context&) -> asio::awaitable<std::vector<std::string>> {
                                    std::vector<std::string> all{"Ada", "Alan", "Grace"}, out;
                                    for (auto& n : all)
                                      if (n.starts_with(r.value)) out.push_back(n);
                                    co_return out;
                                  });
      },
      [](mcp::client&) {},
      [](recording_server&, mcp::client& c) -> asio::awaitable<void> {
        const auto done = co_await c.complete_prompt_argument("greet", "name", "A");
        EXPECT_EQ(done.values, (std::vector<std::string>{"Ada", "Alan"}));
        EXPECT_FALSE(done.has_more);
        std::map<std::string, std::string> args{{"name", "Ada"}};
        const auto prompt = co_await c.get_prompt("greet", args);
        CO_ASSERT_TRUE(!prompt.messages.empty());
        EXPECT_EQ(prompt.messages.front().content.at("text"), "Hello Ada");
      });
}

TEST(ClientFeatures, ChangedRootsAreAnnounced) {
  with_legacy_client([](recording_server&) {},
              [](mcp::client& c) {
                std::vector<root> none;
                c.set_roots(std::move(none));
              },
              [](recording_server& srv, mcp::client& c) -> asio::awaitable<void> {
                std::vector<root> now{root{"file:///new"}};
                c.set_roots(std::move(now));
                for (int i = 0; i < 100 && srv.notifications.empty(); ++i)
                  co_await sleep_for(std::chrono::milliseconds(5));
                EXPECT_EQ(srv.notifications.back(), "notifications/roots/list_changed");
              });
}

}  // namespace
}  // namespace mcp::test
