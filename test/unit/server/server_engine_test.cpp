// The server engine driven through an in-memory transport with raw JSON-RPC
// frames, as a client would send them.

#include "server_harness.hpp"

#include <algorithm>
#include <set>

namespace mcp::test {
namespace {

// A behaviour with one method per thing the tests need a handler to do.
class probe_server final : public server_behaviour {
 public:
  implementation server_info() const override {
    implementation info{"probe", "2.0"};
    info.title = "Probe Server";
    return info;
  }
  json::object capabilities() const override { return {{"tools", json::object{}}}; }

  asio::awaitable<json::object> handle_request(const request& req, request_context& ctx) override {
    if (req.method == "echo") co_return req.params;
    if (req.method == "slow") co_return co_await slow(req, ctx);
    if (req.method == "throw") throw std::runtime_error("boom");
    if (req.method == "refuse") throw protocol_error(errc::invalid_params, "refused");
    if (req.method == "ask") {
      json::object no_params;
      auto roots = co_await ctx.request("roots/list", std::move(no_params), 2s);
      co_return json::object{{"client_said", roots}};
    }
    if (req.method == "transport") co_return json::object{{"kind", ctx.session().transport().kind}};
    if (req.method == "count") {
      auto& n = ctx.session().state<int>();
      co_return json::object{{"count", ++n}};
    }
    throw protocol_error(errc::method_not_found, "Method not found: " + req.method);
  }

  // Methods served without a coroutine.
  std::optional<json::object> handle_request_at_once(const request& req, request_context& ctx) override {
    if (req.method == "now") return json::object{{"params", req.params}, {"session", ctx.session().id()}};
    if (req.method == "now_throw") throw std::runtime_error("bang");
    if (req.method == "now_refuse") throw protocol_error(errc::invalid_params, "not now");
    return std::nullopt;
  }

  asio::awaitable<void> handle_notification(const notification& n, session&) override {
    notifications.push_back(n.method);
    if (n.method == "notifications/throw_a_number") throw 42;  // not a std::exception
    co_return;
  }

  void init(session& s) override { initialized_sessions.push_back(s.id()); }
  void terminate(session&) override { ++terminated; }

  std::vector<std::string> notifications;
  std::vector<std::string> initialized_sessions;
  int terminated = 0;
  int cancelled_handlers = 0;

 private:
  asio::awaitable<json::object> slow(const request& req, request_context& ctx) {
    const auto total = req.params.at("ms").to_number<int>();
    asio::steady_timer timer(co_await asio::this_coro::executor);
    try {
      for (int elapsed = 0; elapsed < total; elapsed += 20) {
        co_await ctx.progress(elapsed, total, "working");
        timer.expires_after(20ms);
        co_await timer.async_wait(asio::use_awaitable);
      }
    } catch (const boost::system::system_error&) {
      if (ctx.cancelled()) ++cancelled_handlers;
      throw;
    }
    co_return json::object{{"done", true}};
  }
};

// The reply is an error with this code, its message containing `text`.
void expect_error(const json::value& reply, int code, std::string_view text) {
  EXPECT_EQ(error_code(reply), code);
  EXPECT_NE(reply.at("error").at("message").as_string().find(text), std::string::npos) << reply;
}

struct probe_harness : harness {
  explicit probe_harness(asio::any_io_executor ex) : harness(ex, std::make_shared<probe_server>()) {}
  probe_harness(asio::any_io_executor ex, memory_options options)
      : harness(ex, std::make_shared<probe_server>(), options) {}
  template <class Wrap>
  probe_harness(asio::any_io_executor ex, memory_options options, Wrap wrap)
      : harness(ex, std::make_shared<probe_server>(), options, wrap) {}
  probe_server& behaviour() { return static_cast<probe_server&>(*server->behaviour); }
};

TEST(ServerEngine, NegotiatesTheRequestedVersion) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    auto reply = co_await h.initialize("2025-06-18");
    const auto& result = reply.at("result").as_object();
    EXPECT_EQ(reply.at("id"), 0);
    EXPECT_EQ(result.at("protocolVersion"), "2025-06-18");
    EXPECT_EQ(result.at("serverInfo").at("name"), "probe");
    EXPECT_EQ(result.at("serverInfo").at("title"), "Probe Server");
    EXPECT_TRUE(result.at("capabilities").as_object().contains("tools"));
    EXPECT_EQ(h.behaviour().initialized_sessions.size(), 1u);
  });
}

TEST(ServerEngine, AnswersAnUnknownVersionWithItsLatest) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    auto reply = co_await h.initialize("1999-01-01");
    EXPECT_EQ(reply.at("result").at("protocolVersion"), "2025-11-25");
  });
}

TEST(ServerEngine, ShapesServerInfoForOldVersions) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    auto reply = co_await h.initialize("2024-11-05");
    EXPECT_FALSE(reply.at("result").at("serverInfo").as_object().contains("title"));
  });
}

TEST(ServerEngine, RejectsRequestsBeforeInitializeButAnswersPing) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    auto early = co_await h.call("a", "echo");
    EXPECT_EQ(early.at("id"), "a");
    EXPECT_EQ(error_code(early), errc::invalid_request);
    auto ping = co_await h.call("p", "ping");
    EXPECT_EQ(ping.at("result"), json::object{});
    auto reply = co_await h.initialize();
    EXPECT_TRUE(reply.as_object().contains("result"));
  });
}

TEST(ServerEngine, RejectsASecondInitialize) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto again = co_await h.call(9, "initialize", initialize_params());
    EXPECT_EQ(again.at("id"), 9);
    EXPECT_EQ(error_code(again), errc::invalid_request);
  });
}

TEST(ServerEngine, RejectsMalformedInitializeParams) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    json::object params{{"protocolVersion", "2025-11-25"}, {"capabilities", json::object{}}};
    auto reply = co_await h.call(1, "initialize", params);
    EXPECT_EQ(error_code(reply), errc::invalid_params);
    EXPECT_NE(reply.at("error").at("message").as_string().find("clientInfo"), std::string::npos);
    // The session is still waiting for a valid initialize.
    auto ok = co_await h.initialize();
    EXPECT_TRUE(ok.as_object().contains("result"));
  });
}

TEST(ServerEngine, HandlersSeeTheTransport) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto reply = co_await h.call(1, "transport");
    EXPECT_EQ(reply.at("result").at("kind"), "memory");
  });
}

TEST(ServerEngine, UnknownMethodIsMethodNotFound) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto reply = co_await h.call(1, "no/such/method");
    EXPECT_EQ(error_code(reply), errc::method_not_found);
  });
}

TEST(ServerEngine, KeepsServingAfterMalformedInput) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    for (std::string garbage : {"{not json", "42", "[]", R"({"jsonrpc":"1.0","id":3,"method":"x"})",
                                "\"\xff\xfe\""}) {
      co_await h.client->write_frame(garbage);
      auto reply = co_await read_json(*h.client);
      EXPECT_NE(error_code(reply), 0) << garbage;
    }
    json::object params{{"still", "here"}};
    auto reply = co_await h.call(7, "echo", params);
    EXPECT_EQ(reply.at("result").at("still"), "here");
  });
}

TEST(ServerEngine, ParseErrorHasNullId) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.client->write_frame("{\"jsonrpc\":\"2.0\",\"id\":1,");
    auto reply = co_await read_json(*h.client);
    EXPECT_EQ(error_code(reply), errc::parse_error);
    EXPECT_TRUE(reply.at("id").is_null());
  });
}

TEST(ServerEngine, SlowRequestDoesNotDelayOthers) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto slow = rpc_request(1, "slow", {{"ms", 300}});
    co_await write_json(*h.client, slow);
    auto fast = co_await h.call(2, "echo");
    EXPECT_EQ(fast.at("id"), 2);
    auto late = co_await read_json(*h.client);
    EXPECT_EQ(late.at("id"), 1);
    EXPECT_EQ(late.at("result").at("done"), true);
  });
}

TEST(ServerEngine, CancelledRequestStopsAndGetsNoReply) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto slow = rpc_request(5, "slow", {{"ms", 5000}});
    co_await write_json(*h.client, slow);
    co_await sleep_for(50ms);
    auto cancel = rpc_notification("notifications/cancelled", {{"requestId", 5}, {"reason", "user"}});
    co_await write_json(*h.client, cancel);
    auto ping = co_await h.call(6, "ping");
    EXPECT_EQ(ping.at("id"), 6);
    EXPECT_TRUE(co_await stays_silent(*h.client, 300ms));
    EXPECT_EQ(h.behaviour().cancelled_handlers, 1);
  });
}

TEST(ServerEngine, CancellingAnUnknownRequestIsHarmless) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto cancel = rpc_notification("notifications/cancelled", {{"requestId", "nobody"}});
    co_await write_json(*h.client, cancel);
    auto reply = co_await h.call(1, "echo");
    EXPECT_TRUE(reply.as_object().contains("result"));
  });
}

TEST(ServerEngine, ProgressGoesToTheRequestsToken) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize("2025-03-26");
    auto slow = rpc_request(1, "slow", {{"ms", 100}, {"_meta", {{"progressToken", "tok-1"}}}});
    co_await write_json(*h.client, slow);
    double last = -1;
    int updates = 0;
    for (;;) {
      auto frame = co_await read_json(*h.client);
      if (frame.as_object().contains("id")) {
        EXPECT_EQ(frame.at("id"), 1);
        break;
      }
      EXPECT_EQ(frame.at("method"), "notifications/progress");
      EXPECT_EQ(frame.at("params").at("progressToken"), "tok-1");
      EXPECT_EQ(frame.at("params").at("message"), "working");
      const double value = frame.at("params").at("progress").to_number<double>();
      EXPECT_GT(value, last);
      last = value;
      ++updates;
    }
    EXPECT_GE(updates, 3);
  });
}

TEST(ServerEngine, ProgressOmitsMessageIn20241105) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize("2024-11-05");
    auto slow = rpc_request(1, "slow", {{"ms", 40}, {"_meta", {{"progressToken", 3}}}});
    co_await write_json(*h.client, slow);
    auto frame = co_await read_json(*h.client);
    EXPECT_EQ(frame.at("params").at("progressToken"), 3);
    EXPECT_FALSE(frame.at("params").as_object().contains("message"));
  });
}

TEST(ServerEngine, NoProgressWithoutAToken) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    json::object params{{"ms", 60}};
    auto reply = co_await h.call(1, "slow", params);
    EXPECT_EQ(reply.at("id"), 1);  // the first frame is the reply itself
  });
}

TEST(ServerEngine, HandlerExceptionIsContainedToItsRequest) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto failed = co_await h.call(1, "throw");
    expect_error(failed, errc::internal_error, "boom");
    auto refused = co_await h.call(2, "refuse");
    expect_error(refused, errc::invalid_params, "refused");
    auto fine = co_await h.call(3, "echo");
    EXPECT_TRUE(fine.as_object().contains("result"));
  });
}

TEST(ServerEngine, ANotificationHandlerThrowingAnythingIsContained) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto thrower = rpc_notification("notifications/throw_a_number");
    co_await write_json(*h.client, thrower);
    auto fine = co_await h.call(1, "echo");
    EXPECT_TRUE(fine.as_object().contains("result"));
  });
}

TEST(ServerEngine, RequestsServedAtOnceFollowTheSameRules) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize("2025-03-26");
    // Served at once while a slow request runs, and answered first.
    auto slow = rpc_request(1, "slow", {{"ms", 100}});
    co_await write_json(*h.client, slow);
    json::object params{{"x", 7}};
    auto now = co_await h.call(2, "now", params);
    EXPECT_EQ(now.at("id"), 2);
    EXPECT_EQ(now.at("result").at("params").at("x"), 7);
    EXPECT_FALSE(now.at("result").at("session").as_string().empty());
    auto finished = co_await read_json(*h.client);
    EXPECT_EQ(finished.at("id"), 1);
    // Their exceptions are contained to them, as a handler's are.
    auto failed = co_await h.call(3, "now_throw");
    expect_error(failed, errc::internal_error, "bang");
    auto refused = co_await h.call(4, "now_refuse");
    expect_error(refused, errc::invalid_params, "not now");
    // In a batch they wait for the others: one reply with every answer.
    json::array batch{rpc_request(5, "now"), rpc_request(6, "slow", {{"ms", 40}}), rpc_request(7, "now_throw")};
    co_await write_json(*h.client, batch);
    auto replies = co_await read_json(*h.client);
    CO_ASSERT_TRUE(replies.is_array());
    std::set<std::string> ids;
    for (const auto& r : replies.as_array()) ids.insert(json::serialize(r.at("id")));
    EXPECT_EQ(ids, (std::set<std::string>{"5", "6", "7"}));
  });
}

// A memory end that writes in batches, as a pipe does, and counts the frames
// of each write.
class batching_end final : public message_transport {
 public:
  explicit batching_end(std::unique_ptr<message_transport> inner) : inner_(std::move(inner)) {}
  asio::any_io_executor get_executor() override { return inner_->get_executor(); }
  asio::awaitable<std::optional<inbound_frame>> read_frame() override { return inner_->read_frame(); }
  asio::awaitable<void> write_frame(std::string frame) override { return inner_->write_frame(std::move(frame)); }
  bool batches_writes() const override { return true; }
  asio::awaitable<void> write_frames(std::vector<std::string> frames) override {
    batch_sizes->push_back(frames.size());
    for (auto& frame : frames) co_await inner_->write_frame(std::move(frame));
  }
  asio::awaitable<void> close() override { return inner_->close(); }

  std::shared_ptr<std::vector<std::size_t>> batch_sizes = std::make_shared<std::vector<std::size_t>>();

 private:
  std::unique_ptr<message_transport> inner_;
};

TEST(ServerEngine, RepliesToABurstGoOutWhileTheBurstIsServed) {
  run_test([]() -> asio::awaitable<void> {
    std::shared_ptr<std::vector<std::size_t>> batch_sizes;
    probe_harness h(co_await asio::this_coro::executor, memory_options{}, [&](auto end) {
      auto batching = std::make_unique<batching_end>(std::move(end));
      batch_sizes = batching->batch_sizes;
      return batching;
    });
    co_await h.initialize();
    // A client pipelining requests: all of them are read before the first is
    // served. The first replies must not wait for the last request.
    constexpr int burst = 100;
    for (int id = 1; id <= burst; ++id) {
      auto request = rpc_request(id, "now");
      co_await write_json(*h.client, request);
    }
    for (int id = 1; id <= burst; ++id) {
      auto reply = co_await read_json(*h.client);
      EXPECT_EQ(reply.at("id"), id);
    }
    CO_ASSERT_TRUE(!batch_sizes->empty());
    EXPECT_LT(*std::max_element(batch_sizes->begin(), batch_sizes->end()), std::size_t(burst / 2));
  });
}

TEST(ServerEngine, BatchIsAnsweredAsABatchIn20250326) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize("2025-03-26");
    json::array batch{rpc_request(1, "ping"), rpc_request(2, "slow", {{"ms", 40}}),
                      rpc_notification("notifications/whatever"), 5};
    co_await write_json(*h.client, batch);
    auto reply = co_await read_json(*h.client);
    CO_ASSERT_TRUE(reply.is_array());
    const auto& replies = reply.as_array();
    CO_ASSERT_TRUE(replies.size() == 3u);
    std::set<std::string> ids;
    for (const auto& r : replies) ids.insert(json::serialize(r.at("id")));
    EXPECT_EQ(ids, (std::set<std::string>{"1", "2", "null"}));
  });
}

TEST(ServerEngine, BatchOfNotificationsGetsNoReply) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize("2025-03-26");
    json::array batch{rpc_notification("notifications/a"), rpc_notification("notifications/b")};
    co_await write_json(*h.client, batch);
    auto ping = co_await h.call(1, "ping");
    EXPECT_EQ(ping.at("id"), 1);  // nothing came before it
    EXPECT_EQ(h.behaviour().notifications, (std::vector<std::string>{"notifications/a", "notifications/b"}));
  });
}

TEST(ServerEngine, BatchIsRefusedWhereTheVersionHasNone) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize("2025-06-18");
    json::array batch{rpc_request(1, "ping"), rpc_request(2, "ping")};
    co_await write_json(*h.client, batch);
    auto reply = co_await read_json(*h.client);
    CO_ASSERT_TRUE(reply.is_object());
    EXPECT_EQ(error_code(reply), errc::invalid_request);
    EXPECT_TRUE(reply.at("id").is_null());
  });
}

TEST(ServerEngine, InitializeInABatchIsRefused) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    json::array batch{rpc_request(1, "initialize", initialize_params("2025-03-26"))};
    co_await write_json(*h.client, batch);
    auto reply = co_await read_json(*h.client);
    EXPECT_EQ(error_code(reply), errc::invalid_request);
  });
}

TEST(ServerEngine, DuplicateInFlightIdIsRefused) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto slow = rpc_request(1, "slow", {{"ms", 200}});
    co_await write_json(*h.client, slow);
    auto duplicate = co_await h.call(1, "echo");
    EXPECT_EQ(error_code(duplicate), errc::invalid_request);
    auto original = co_await read_json(*h.client);
    EXPECT_EQ(original.at("result").at("done"), true);
  });
}

TEST(ServerEngine, OversizedFrameIsAnsweredAndServingGoesOn) {
  run_test([]() -> asio::awaitable<void> {
    memory_options small;
    small.max_frame_size = 256;
    probe_harness h(co_await asio::this_coro::executor, small);
    co_await h.initialize();
    auto huge = rpc_request(1, "echo", {{"blob", std::string(1000, 'x')}});
    co_await write_json(*h.client, huge);
    auto reply = co_await read_json(*h.client);
    EXPECT_EQ(error_code(reply), errc::invalid_request);
    auto fine = co_await h.call(2, "echo");
    EXPECT_EQ(fine.at("id"), 2);
  });
}

TEST(ServerEngine, HandlerCanRequestFromTheClient) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto ask = rpc_request(1, "ask");
    co_await write_json(*h.client, ask);
    auto request = co_await read_json(*h.client);
    EXPECT_EQ(request.at("method"), "roots/list");
    json::object answer{{"jsonrpc", "2.0"},
                        {"id", request.at("id")},
                        {"result", {{"roots", json::array{}}}}};
    co_await write_json(*h.client, answer);
    auto reply = co_await read_json(*h.client);
    EXPECT_EQ(reply.at("id"), 1);
    EXPECT_TRUE(reply.at("result").at("client_said").at("roots").is_array());
  });
}

TEST(ServerEngine, ClientErrorToServerRequestReachesTheHandler) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto ask = rpc_request(1, "ask");
    co_await write_json(*h.client, ask);
    auto request = co_await read_json(*h.client);
    json::object answer{{"jsonrpc", "2.0"},
                        {"id", request.at("id")},
                        {"error", {{"code", -32601}, {"message", "no roots"}}}};
    co_await write_json(*h.client, answer);
    auto reply = co_await read_json(*h.client);
    EXPECT_EQ(error_code(reply), -32601);  // the handler let the protocol_error through
  });
}

TEST(ServerEngine, SessionStateIsPerSession) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    probe_harness one(ex), two(ex);
    co_await one.initialize();
    co_await two.initialize();
    co_await one.call(1, "count");
    auto a = co_await one.call(2, "count");
    auto b = co_await two.call(1, "count");
    EXPECT_EQ(a.at("result").at("count"), 2);
    EXPECT_EQ(b.at("result").at("count"), 1);
    EXPECT_NE(one.behaviour().initialized_sessions.front(), two.behaviour().initialized_sessions.front());
  });
}

TEST(ServerEngine, NotificationsReachTheBehaviourOnlyAfterInitialize) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    auto early = rpc_notification("notifications/roots/list_changed");
    co_await write_json(*h.client, early);
    co_await h.initialize();
    co_await write_json(*h.client, early);
    co_await h.call(1, "ping");
    EXPECT_EQ(h.behaviour().notifications,
              (std::vector<std::string>{"notifications/roots/list_changed"}));
  });
}

TEST(ServerEngine, StopCancelsRunningRequestsAndCloses) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    auto slow = rpc_request(1, "slow", {{"ms", 10000}});
    co_await write_json(*h.client, slow);
    co_await sleep_for(50ms);
    h.server->stop.emit(asio::cancellation_type::terminal);
    auto end = co_await read_text(*h.client, 3s);
    EXPECT_FALSE(end.has_value());  // closed, with no reply to the cancelled call
    for (int i = 0; i < 100 && !h.server->served; ++i) co_await sleep_for(10ms);
    EXPECT_TRUE(h.server->served);
    EXPECT_EQ(h.behaviour().cancelled_handlers, 1);
    EXPECT_EQ(h.behaviour().terminated, 1);
  });
}

TEST(ServerEngine, ManyConcurrentRequestsAllAnswered) {
  run_test([]() -> asio::awaitable<void> {
    probe_harness h(co_await asio::this_coro::executor);
    co_await h.initialize();
    constexpr int count = 500;
    for (int i = 1; i <= count; ++i) {
      auto r = rpc_request(i, "slow", {{"ms", 20}});
      co_await write_json(*h.client, r);
    }
    std::set<std::int64_t> seen;
    for (int i = 0; i < count; ++i) {
      auto reply = co_await read_json(*h.client);
      seen.insert(reply.at("id").as_int64());
    }
    EXPECT_EQ(seen.size(), std::size_t(count));
  });
}

}  // namespace
}  // namespace mcp::test
