// The client against a scripted server on the other end of a memory pair:
// the test plays the server frame by frame.

#include <mcp/client/client.hpp>
#include <mcp/transport/memory.hpp>

#include "legacy_client.hpp"
#include "scripted_server.hpp"
#include "test_support.hpp"

#include <boost/asio/detached.hpp>

namespace mcp::test {
namespace {

using namespace asio::experimental::awaitable_operators;

// Connects a client to a scripted server that accepts the handshake.
asio::awaitable<connected_pair> connect_pair() {
  auto ex = co_await asio::this_coro::executor;
  auto [client_end, server_end] = make_memory_pair(ex);
  connected_pair pair{std::move(server_end), std::make_unique<mcp::client>(ex, legacy_only())};
  auto handshake = accept_initialize(*pair.server);
  auto connect = pair.client->connect(std::move(client_end));
  co_await (std::move(handshake) && std::move(connect));
  co_return pair;
}

TEST(Client, HandshakeOffersTheNewestVersionAndAcceptsAnOlderOne) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto [client_end, server_end] = make_memory_pair(ex);
    client_options options;
    options.client_info = {"unit", "9.9"};
    mcp::client c(ex, legacy_only(options));
    EXPECT_EQ(c.state(), connection_state::disconnected);
    auto handshake = accept_initialize(*server_end, "2025-03-26");
    auto connect = c.connect(std::move(client_end));
    auto [hello, result] = co_await (std::move(handshake) && std::move(connect));
    EXPECT_EQ(hello.at("method"), "initialize");
    EXPECT_EQ(hello.at("params").at("protocolVersion"), "2025-11-25");
    EXPECT_EQ(hello.at("params").at("clientInfo").at("name"), "unit");
    EXPECT_EQ(result.version, protocol_version::v2025_03_26);
    EXPECT_EQ(result.server_info.name, "scripted");
    EXPECT_EQ(c.state(), connection_state::ready);
  });
}

TEST(Client, RejectsAVersionItDoesNotSupport) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // Named members, not a structured binding: clang 14 cannot capture one.
    auto ends = make_memory_pair(ex);
    auto& client_end = ends.first;
    auto& server_end = ends.second;
    mcp::client c(ex, legacy_only());
    auto hello_reader = [&]() -> asio::awaitable<void> {
      auto hello = co_await read_json(*server_end);
      json::object result{{"protocolVersion", "2099-01-01"},
                          {"capabilities", json::object{}},
                          {"serverInfo", {{"name", "future"}, {"version", "1"}}}};
      co_await reply_result(*server_end, hello.at("id"), std::move(result));
    };
    asio::co_spawn(ex, hello_reader(), asio::detached);
    bool refused = false;
    try {
      co_await c.connect(std::move(client_end));
    } catch (const malformed_result& e) {
      refused = true;
      EXPECT_NE(std::string(e.what()).find("2099-01-01"), std::string::npos);
    }
    EXPECT_TRUE(refused);
    EXPECT_NE(c.state(), connection_state::ready);
  });
}

TEST(Client, TimeoutSendsCancellationAndIgnoresTheLateReply) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    call_options quick;
    quick.timeout = 100ms;
    bool timed_out = false;
    try {
      co_await pair.client->request("tools/list", {}, quick);
    } catch (const boost::system::system_error& e) {
      timed_out = e.code() == asio::error::timed_out;
    }
    EXPECT_TRUE(timed_out);
    auto request = co_await read_json(*pair.server);
    EXPECT_EQ(request.at("method"), "tools/list");
    auto cancelled = co_await read_json(*pair.server);
    EXPECT_EQ(cancelled.at("method"), "notifications/cancelled");
    EXPECT_EQ(cancelled.at("params").at("requestId"), request.at("id"));
    // The late reply is dropped; the next call gets its own answer.
    json::object late{{"tools", json::array{}}};
    co_await reply_result(*pair.server, request.at("id"), std::move(late));
    auto next = [&]() -> asio::awaitable<void> {
      auto r = co_await read_json(*pair.server);
      json::object mine{{"mine", true}};
      co_await reply_result(*pair.server, r.at("id"), std::move(mine));
    };
    auto result = co_await (next() && pair.client->request("x"));
    EXPECT_EQ(result.at("mine"), true);
  });
}

TEST(Client, GarbageFromTheServerIsAnsweredAndTheClientGoesOn) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    auto server = [&]() -> asio::awaitable<void> {
      auto r = co_await read_json(*pair.server);
      // Not JSON, then JSON that is not JSON-RPC, then a response to no request.
      co_await pair.server->write_frame("this is not json");
      co_await pair.server->write_frame(R"({"hello":"world"})");
      json::object stray{{"jsonrpc", "2.0"}, {"id", 987654}, {"result", json::object{}}};
      co_await write_json(*pair.server, stray);
      // The client says what was wrong with the first two, as a JSON-RPC peer should.
      auto parse_error = co_await read_json(*pair.server);
      EXPECT_EQ(parse_error.at("error").at("code"), -32700);
      auto invalid = co_await read_json(*pair.server);
      EXPECT_EQ(invalid.at("error").at("code"), -32600);
      json::object mine{{"mine", true}};
      co_await reply_result(*pair.server, r.at("id"), std::move(mine));
    };
    auto result = co_await (server() && pair.client->request("x"));
    EXPECT_EQ(result.at("mine"), true);
    EXPECT_EQ(pair.client->state(), connection_state::ready);
  });
}

// Reads through to `inner`; once `stalled`, a write never completes (until cancelled).
class stalling_transport final : public message_transport {
 public:
  explicit stalling_transport(std::unique_ptr<message_transport> inner) : inner_(std::move(inner)) {}
  asio::any_io_executor get_executor() override { return inner_->get_executor(); }
  asio::awaitable<std::optional<inbound_frame>> read_frame() override { return inner_->read_frame(); }
  asio::awaitable<void> write_frame(std::string frame) override {
    if (!stalled) co_return co_await inner_->write_frame(std::move(frame));
    asio::steady_timer never(inner_->get_executor(), std::chrono::steady_clock::time_point::max());
    co_await never.async_wait(asio::use_awaitable);  // throws operation_aborted when cancelled
  }
  asio::awaitable<void> close() override { return inner_->close(); }
  bool stalled = false;

 private:
  std::unique_ptr<message_transport> inner_;
};

TEST(Client, AWriteThatStallsEndsTheConnectionAfterTheWriteTimeout) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto [client_end, server_end] = make_memory_pair(ex);
    auto stalling = std::make_unique<stalling_transport>(std::move(client_end));
    auto& transport = *stalling;
    client_options options;
    options.write_timeout = 100ms;
    mcp::client c(ex, legacy_only(options));
    auto handshake = accept_initialize(*server_end);
    co_await (std::move(handshake) && c.connect(std::move(stalling)));
    transport.stalled = true;
    const auto before = std::chrono::steady_clock::now();
    EXPECT_EQ(co_await failure_of(c.ping()), asio::error::connection_aborted);
    const auto waited = std::chrono::steady_clock::now() - before;
    EXPECT_GE(waited, 100ms);
    EXPECT_LT(waited, 2s);
    // The connection was closed, so the reader ends too.
    for (int i = 0; i < 200 && c.state() != connection_state::disconnected; ++i) co_await sleep_for(5ms);
    EXPECT_EQ(c.state(), connection_state::disconnected);
  });
}

TEST(Client, CancellingTheCallerSendsCancellation) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    auto request = pair.client->request("slow");
    auto outcome = co_await (std::move(request) || sleep_for(50ms));
    EXPECT_EQ(outcome.index(), 1u);  // the sleep won; the request was cancelled
    auto sent = co_await read_json(*pair.server);
    auto cancelled = co_await read_json(*pair.server);
    EXPECT_EQ(cancelled.at("method"), "notifications/cancelled");
    EXPECT_EQ(cancelled.at("params").at("requestId"), sent.at("id"));
  });
}

TEST(Client, ProgressResetsTheTimeout) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    std::vector<double> seen;
    call_options options;
    options.timeout = 150ms;
    options.on_progress = [&](const progress_update& p) { seen.push_back(p.progress); };
    auto server = [&]() -> asio::awaitable<void> {
      auto r = co_await read_json(*pair.server);
      const auto token = r.at("params").at("_meta").at("progressToken");
      for (int i = 1; i <= 4; ++i) {
        co_await sleep_for(100ms);
        auto progress = rpc_notification("notifications/progress",
                                         {{"progressToken", token}, {"progress", i}, {"total", 4}});
        co_await write_json(*pair.server, progress);
      }
      json::object done{{"done", true}};
      co_await reply_result(*pair.server, r.at("id"), std::move(done));
    };
    auto result = co_await (server() && pair.client->request("long", {}, options));
    EXPECT_EQ(result.at("done"), true);
    EXPECT_EQ(seen, (std::vector<double>{1, 2, 3, 4}));
  });
}

TEST(Client, AMalformedNotificationIsDroppedAndTheConnectionGoesOn) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    std::vector<double> progress_seen;
    std::vector<std::string> tasks_seen;
    pair.client->on_task_status([&](const task_info& t) { tasks_seen.push_back(t.id); });
    call_options options;
    options.on_progress = [&](const progress_update& p) { progress_seen.push_back(p.progress); };
    auto server = [&]() -> asio::awaitable<void> {
      auto r = co_await read_json(*pair.server);
      const auto token = r.at("params").at("_meta").at("progressToken");
      // (Each built on its own line: docs/compilers.md, "Braced JSON initializer lists".)
      const auto not_a_number =
          rpc_notification("notifications/progress", {{"progressToken", token}, {"progress", "half"}});
      const auto no_id = rpc_notification("notifications/tasks/status", {{"status", "working"}});
      const auto unknown_status =
          rpc_notification("notifications/tasks/status", {{"taskId", "t0"}, {"status", "asleep"}});
      const auto progress = rpc_notification("notifications/progress", {{"progressToken", token}, {"progress", 1}});
      const auto status = rpc_notification("notifications/tasks/status", {{"taskId", "t1"}, {"status", "working"}});
      co_await write_json(*pair.server, not_a_number);
      co_await write_json(*pair.server, no_id);
      co_await write_json(*pair.server, unknown_status);
      co_await write_json(*pair.server, progress);
      co_await write_json(*pair.server, status);
      json::object done{{"done", true}};
      co_await reply_result(*pair.server, r.at("id"), std::move(done));
    };
    auto result = co_await (server() && pair.client->request("long", {}, options));
    EXPECT_EQ(result.at("done"), true);
    EXPECT_EQ(progress_seen, (std::vector<double>{1}));
    EXPECT_EQ(tasks_seen, (std::vector<std::string>{"t1"}));
  });
}

TEST(Client, ErrorReplyBecomesProtocolError) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    auto server = [&]() -> asio::awaitable<void> {
      auto r = co_await read_json(*pair.server);
      json::object reply{{"jsonrpc", "2.0"},
                         {"id", r.at("id")},
                         {"error", {{"code", -32602}, {"message", "Unknown tool: x"}}}};
      co_await write_json(*pair.server, reply);
    };
    auto call = [&]() -> asio::awaitable<int> {
      try {
        co_await pair.client->call_tool("x");
      } catch (const protocol_error& e) {
        co_return e.error().code;
      }
      co_return 0;
    };
    auto code = co_await (server() && call());
    EXPECT_EQ(code, -32602);
  });
}

TEST(Client, ConnectionLossFailsWaitingCalls) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    auto server = [&]() -> asio::awaitable<void> {
      co_await read_json(*pair.server);
      co_await pair.server->close();
    };
    auto call = [&]() -> asio::awaitable<bool> {
      try {
        co_await pair.client->ping();
      } catch (const boost::system::system_error& e) {
        co_return e.code() == asio::error::connection_aborted;
      }
      co_return false;
    };
    auto aborted = co_await (server() && call());
    EXPECT_TRUE(aborted);
    EXPECT_EQ(pair.client->state(), connection_state::disconnected);
  });
}

TEST(Client, AnswersServerPingAndRefusesUnknownRequests) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    auto ping = rpc_request("s1", "ping");
    co_await write_json(*pair.server, ping);
    auto pong = co_await read_json(*pair.server);
    EXPECT_EQ(pong.at("id"), "s1");
    EXPECT_EQ(pong.at("result"), json::object{});
    auto odd = rpc_request("s2", "sampling/createMessage");
    co_await write_json(*pair.server, odd);
    auto refusal = co_await read_json(*pair.server);
    EXPECT_EQ(error_code(refusal), errc::method_not_found);
  });
}

TEST(Client, ManyCallsInFlightGetTheirOwnReplies) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    constexpr int count = 50;
    auto server = [&]() -> asio::awaitable<void> {
      std::vector<json::value> ids;
      for (int i = 0; i < count; ++i) {
        auto r = co_await read_json(*pair.server);
        ids.push_back(r.at("id"));
      }
      // Answer in reverse order, echoing each id in the result.
      for (auto it = ids.rbegin(); it != ids.rend(); ++it) {
        json::object echo{{"echo", *it}};
        co_await reply_result(*pair.server, *it, std::move(echo));
      }
    };
    int correct = 0;
    auto caller = [&]() -> asio::awaitable<void> {
      auto result = co_await pair.client->request("echo");
      if (result.contains("echo")) ++correct;
    };
    auto ex = co_await asio::this_coro::executor;
    for (int i = 0; i < count; ++i) asio::co_spawn(ex, caller(), asio::detached);
    co_await server();
    for (int i = 0; i < 100 && correct < count; ++i) co_await sleep_for(10ms);
    EXPECT_EQ(correct, count);
  });
}

TEST(Client, DeliversNotifications) {
  run_test([]() -> asio::awaitable<void> {
    auto pair = co_await connect_pair();
    std::vector<std::string> methods;
    pair.client->on_notification([&](const notification& n) { methods.push_back(n.method); });
    auto changed = rpc_notification("notifications/tools/list_changed");
    co_await write_json(*pair.server, changed);
    for (int i = 0; i < 100 && methods.empty(); ++i) co_await sleep_for(5ms);
    EXPECT_EQ(methods, (std::vector<std::string>{"notifications/tools/list_changed"}));
  });
}

TEST(Client, RequestBeforeConnectFails) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    bool refused = false;
    try {
      co_await c.ping();
    } catch (const boost::system::system_error& e) {
      refused = e.code() == asio::error::not_connected;
    }
    EXPECT_TRUE(refused);
  });
}

}  // namespace
}  // namespace mcp::test
