// Middleware on both sides: the server's chain around what its handlers
// serve, and the client's around what it sends, in both eras.

#include <mcp/client/middleware.hpp>
#include <mcp/server/middleware.hpp>

#include "legacy_client.hpp"
#include "memory_server_client.hpp"

namespace mcp::test {
namespace {

// A tool that answers with its `text` argument.
void add_echo(mcp::server& srv) {
  srv.add_tool(tool_named("echo"), [](const json::object& args, request_context&) -> asio::awaitable<call_tool_result> {
    const auto* text = args.if_contains("text");
    co_return call_tool_result::text(text && text->is_string() ? std::string(text->get_string()) : "");
  });
}

json::object text_argument(std::string text) { return json::object{{"text", std::move(text)}}; }

// A link that notes its name on the way in and out of every request.
class tracing_link final : public server_middleware {
 public:
  tracing_link(std::string name, std::vector<std::string>& trail) : name_(std::move(name)), trail_(trail) {}
  asio::awaitable<json::object> on_request(const request& req, request_context& ctx, request_next next) override {
    trail_.push_back(name_ + ">" + req.method);
    auto result = co_await next(req, ctx);
    trail_.push_back("<" + name_);
    co_return result;
  }

 private:
  std::string name_;
  std::vector<std::string>& trail_;
};

class ServerMiddleware : public ::testing::TestWithParam<bool> {
 protected:
  // The client of the era under test: 2026-07-28 or legacy.
  client_options options() const { return GetParam() ? client_options{} : legacy_only(); }
};

TEST_P(ServerMiddleware, LinksRunInTheOrderAddedAroundTheHandler) {
  std::vector<std::string> trail;
  with_server_and_client(
      [&](mcp::server& srv) {
        add_echo(srv);
        srv.middleware().use(std::make_shared<tracing_link>("outer", trail));
        srv.middleware().use(std::make_shared<tracing_link>("inner", trail));
      },
      options(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        trail.clear();  // (the connection's own requests)
        const auto result = co_await c.call_tool("echo", text_argument("hi"));
        EXPECT_EQ(first_text(result), "hi");
        const std::vector<std::string> expected{"outer>tools/call", "inner>tools/call", "<inner", "<outer"};
        EXPECT_EQ(trail, expected);
      });
}

TEST_P(ServerMiddleware, ALinkRejectsARequestWithItsOwnErrorAndTheHandlerNeverRuns) {
  bool ran = false;
  with_server_and_client(
      [&](mcp::server& srv) {
        srv.add_tool(tool_named("guarded"), [&](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
          ran = true;
          co_return call_tool_result::text("ran");
        });
        srv.middleware().use([](const request& req, request_context& ctx, request_next next) -> asio::awaitable<json::object> {
          if (req.method == "tools/call") throw protocol_error(errc::invalid_request, "rate limited");
          co_return co_await next(req, ctx);
        });
      },
      options(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        int code = 0;
        std::string message;
        try {
          co_await c.call_tool("guarded", json::object{});
        } catch (const protocol_error& e) {
          code = e.error().code;
          message = e.error().message;
        }
        EXPECT_EQ(code, errc::invalid_request);
        EXPECT_EQ(message, "rate limited");
        EXPECT_FALSE(ran);
        // Other methods pass.
        const auto tools = co_await c.list_tools();
        EXPECT_EQ(tools.size(), 1u);
      });
}

TEST_P(ServerMiddleware, ALinkRewritesTheRequestAndTheResult) {
  with_server_and_client(
      [&](mcp::server& srv) {
        add_echo(srv);
        srv.middleware().use([](const request& req, request_context& ctx, request_next next) -> asio::awaitable<json::object> {
          if (req.method != "tools/call") co_return co_await next(req, ctx);
          request rewritten = req;
          rewritten.params["arguments"] = json::object{{"text", "rewritten"}};
          auto result = co_await next(rewritten, ctx);
          result["_meta"] = json::object{{"example.com/seen", true}};
          co_return result;
        });
      },
      options(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        const auto result = co_await c.call_tool("echo", text_argument("original"));
        EXPECT_EQ(first_text(result), "rewritten");
        json::object call{{"name", "echo"}, {"arguments", json::object{}}};
        const auto raw = co_await c.request("tools/call", std::move(call));
        EXPECT_TRUE(raw.at("_meta").as_object().contains("example.com/seen"));
      });
}

TEST_P(ServerMiddleware, LinksAreAddedAndRemovedWhileTheServerRuns) {
  int seen = 0;
  with_server_and_client(
      [&](mcp::server& srv) { add_echo(srv); }, options(),
      [&](mcp::server& srv, mcp::client& c) -> asio::awaitable<void> {
        co_await c.call_tool("echo", text_argument("a"));
        EXPECT_EQ(seen, 0);
        auto link = srv.middleware().use([&](const request& req, request_context& ctx, request_next next) {
          ++seen;
          return next(req, ctx);
        });
        co_await c.call_tool("echo", text_argument("b"));
        co_await c.list_tools();  // served at once without a chain; through it with one
        EXPECT_EQ(seen, 2);
        EXPECT_TRUE(srv.middleware().remove(link));
        EXPECT_FALSE(srv.middleware().remove(link));
        EXPECT_TRUE(srv.middleware().empty());
        co_await c.call_tool("echo", text_argument("c"));
        EXPECT_EQ(seen, 2);
      });
}

TEST_P(ServerMiddleware, ALinkTimesTheRequestItWraps) {
  std::vector<double> durations;
  with_server_and_client(
      [&](mcp::server& srv) {
        srv.add_tool(tool_named("slow"), [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
          co_await sleep_for(std::chrono::milliseconds(20));
          co_return call_tool_result::text("done");
        });
        srv.middleware().use([&](const request& req, request_context& ctx, request_next next) -> asio::awaitable<json::object> {
          const auto start = std::chrono::steady_clock::now();
          auto result = co_await next(req, ctx);
          if (req.method == "tools/call")
            durations.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
          co_return result;
        });
      },
      options(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        co_await c.call_tool("slow", json::object{});
        CO_ASSERT_TRUE(durations.size() == 1u);
        EXPECT_GE(durations.front(), 0.02);
      });
}

INSTANTIATE_TEST_SUITE_P(Eras, ServerMiddleware, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Modern" : "Legacy"; });

// A link on notifications (legacy: 2026-07-28 clients send none of these).
class notification_counter final : public server_middleware {
 public:
  explicit notification_counter(std::vector<std::string>& seen) : seen_(seen) {}
  asio::awaitable<void> on_notification(const notification& n, session& s, notification_next next) override {
    seen_.push_back(n.method);
    co_await next(n, s);
  }

 private:
  std::vector<std::string>& seen_;
};

TEST(ServerMiddleware, NotificationsGoThroughTheirLinks) {
  std::vector<std::string> seen;
  with_server_and_client(
      [&](mcp::server& srv) { srv.middleware().use(std::make_shared<notification_counter>(seen)); },
      legacy_only(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        co_await c.notify("notifications/roots/list_changed");
        co_await c.ping();  // answered after the notification was handled
        const std::vector<std::string> expected{"notifications/roots/list_changed"};
        EXPECT_EQ(seen, expected);
      });
}

// The client's chain.
class argument_stamp final : public client_middleware {
 public:
  explicit argument_stamp(std::vector<std::string>& methods) : methods_(methods) {}
  asio::awaitable<json::object> on_request(outgoing_request req, client_next next) override {
    methods_.push_back(req.method);
    if (req.method == "tools/call") req.params["arguments"] = json::object{{"text", "stamped"}};
    co_return co_await next(std::move(req));
  }

 private:
  std::vector<std::string>& methods_;
};

TEST(ClientMiddleware, ALinkSeesAndRewritesEveryCallUntilRemoved) {
  std::vector<std::string> methods;
  with_server_and_client(
      [](mcp::server& srv) { add_echo(srv); }, client_options{},
      [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        auto link = std::make_shared<argument_stamp>(methods);
        c.middleware().use(link);
        const auto tools = co_await c.list_tools();
        const auto stamped = co_await c.call_tool("echo", text_argument("mine"));
        EXPECT_EQ(first_text(stamped), "stamped");
        EXPECT_TRUE(c.middleware().remove(link));
        const auto plain = co_await c.call_tool("echo", text_argument("mine"));
        EXPECT_EQ(first_text(plain), "mine");
        const std::vector<std::string> expected{"tools/list", "tools/call"};
        EXPECT_EQ(methods, expected);
      });
}

TEST(ClientMiddleware, ALambdaLinkWrapsCallsUntilWhatUseReturnedIsRemoved) {
  with_server_and_client(
      [](mcp::server& srv) { add_echo(srv); }, client_options{},
      [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        EXPECT_TRUE(c.middleware().empty());
        const auto refuse_calls = c.middleware().use(
            [](mcp::outgoing_request req, mcp::client_next next) -> asio::awaitable<json::object> {
              if (req.method == "tools/call") throw std::runtime_error("calls are off");
              co_return co_await next(std::move(req));
            });
        EXPECT_FALSE(c.middleware().empty());
        co_await c.list_tools();  // passed on
        bool refused = false;
        try {
          co_await c.call_tool("echo", text_argument("mine"));
        } catch (const std::runtime_error& e) {
          refused = std::string_view(e.what()) == "calls are off";
        }
        EXPECT_TRUE(refused);
        EXPECT_TRUE(c.middleware().remove(refuse_calls));
        EXPECT_FALSE(c.middleware().remove(refuse_calls));
        EXPECT_TRUE(c.middleware().empty());
        const auto plain = co_await c.call_tool("echo", text_argument("mine"));
        EXPECT_EQ(first_text(plain), "mine");
      });
}

class ClientTrace : public ServerMiddleware {};

TEST_P(ClientTrace, ACallsTraceReachesTheServerInMeta) {
  std::string traceparent;
  std::string tracestate;
  with_server_and_client(
      [&](mcp::server& srv) {
        srv.add_tool(tool_named("traced"), [&](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          const auto& meta = ctx.meta();
          if (const auto* p = meta.if_contains("traceparent")) traceparent = std::string(p->as_string());
          if (const auto* s = meta.if_contains("tracestate")) tracestate = std::string(s->as_string());
          co_return call_tool_result::text("ok");
        });
      },
      options(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        call_options call;
        call.trace.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        call.trace.tracestate = "vendor=1";
        co_await c.call_tool("traced", json::object{}, call);
        EXPECT_EQ(traceparent, call.trace.traceparent);
        EXPECT_EQ(tracestate, "vendor=1");
      });
}

// A legacy session's requests to the client go out in the trace of the
// request that made them.
TEST(ServerTrace, ARequestToTheClientCarriesItsRequestsTrace) {
  const std::string traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  std::string seen;
  client_options options = legacy_only();
  with_server_and_client(
      [](mcp::server& srv) {
        srv.add_tool(tool_named("asks"), [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          json::object form{{"type", "object"}, {"properties", json::object{}}};
          co_await ctx.elicit("Go on?", std::move(form));
          co_return call_tool_result::text("asked");
        });
      },
      options,
      [&](mcp::client& c) {
        c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
          if (const auto* meta = params.if_contains("_meta"))
            if (const auto* p = meta->as_object().if_contains("traceparent")) seen = std::string(p->as_string());
          co_return json::object{{"action", "decline"}};
        });
      },
      [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        call_options call;
        call.trace.traceparent = traceparent;
        co_await c.call_tool("asks", json::object{}, call);
        EXPECT_EQ(seen, traceparent);
      });
}

INSTANTIATE_TEST_SUITE_P(Eras, ClientTrace, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "Modern" : "Legacy"; });

}  // namespace
}  // namespace mcp::test
