// `caduceus gateway --redis URL`: replicas sharing their sessions through a
// real redis-server, as behind a load balancer that sends each request where
// it likes. A session's child lives in the replica that opened the session;
// its requests through another replica reach that same child, with their
// progress, and the holder's death (kill -9) is a clear error there.

#include "caduceus_cli.hpp"
#include "haproxy.hpp"
#include "http_client.hpp"
#include "legacy_client.hpp"
#include "http_test_server.hpp"
#include "redis_server.hpp"
#include "test_support.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/http_client.hpp>

#include <gtest/gtest.h>

#include <csignal>
#include <fstream>
#include <string>

namespace mcp::test {
namespace {


/// The message that answers request `id` in a reply (JSON, or the events of a stream).
json::object answer_of(const http_reply& reply, std::int64_t id) {
  const auto messages = reply.content_type() == "text/event-stream" ? reply.sse_messages()
                                                                      : std::vector<json::value>{reply.json()};
  for (const auto& m : messages)
    if (const auto* got = m.as_object().if_contains("id"); got && *got == id) return m.as_object();
  throw std::runtime_error("no answer to " + std::to_string(id) + " in: " + reply.body);
}

/// The number the tool's first text says (slow-server's `pid`).
int pid_in(const json::object& answer) {
  return std::stoi(std::string(answer.at("result").at("content").at(0).at("text").as_string()));
}

TEST(GatewayReplicas, ASessionReachesItsChildThroughAnyReplicaUntilItsHolderDies) {
  if (!redis_server::available()) GTEST_SKIP() << "no redis-server";
  redis_server redis;
  gateway_process holder(slow_server_command, {"--redis", redis.url()});
  gateway_process other(slow_server_command, {"--redis", redis.url()});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_holder(ex, holder.port);
    http_connection to_other(ex, other.port);
    const auto session = co_await open_session(to_holder);

    const auto here = co_await to_holder.send(session_post(rpc_request(1, "tools/call", tool_call("pid", {})), session));
    const auto there = co_await to_other.send(session_post(rpc_request(2, "tools/call", tool_call("pid", {})), session));
    const int pid = pid_in(answer_of(here, 1));
    EXPECT_EQ(pid_in(answer_of(there, 2)), pid) << "the other replica started a child of its own";

    // Progress of a call through the other replica comes back on its stream, before its answer.
    const auto slow = tool_call("sleep", {{"ms", 300}, {"step_ms", 100}}, "p1");
    const auto slept = co_await to_other.send(session_post(rpc_request(3, "tools/call", slow), session));
    EXPECT_EQ(answer_of(slept, 3).at("result").at("content").at(0).at("text"), "slept 300 ms") << slept.body;
    EXPECT_NE(slept.body.find("notifications/progress"), std::string::npos) << slept.body;

    // The holder dies: the other replica says so, and does not start another child.
    holder.process.signal(SIGKILL);
    const auto after = co_await to_other.send(session_post(rpc_request(4, "tools/call", tool_call("pid", {})), session));
    const auto failed = answer_of(after, 4);
    EXPECT_EQ(failed.at("error").at("code"), -32603) << after.body;
    EXPECT_NE(json::serialize(failed).find("is gone"), std::string::npos) << after.body;
  }, 60s);
}

// The client talks to the other gateway only: the holder's copy of the
// session goes idle and ends, its child lives on. What the upstream says to
// the session then (a list change) still reaches the client's GET stream,
// through the other gateway.
TEST(GatewayReplicas, TheUpstreamsNotificationsReachTheClientThroughTheOtherGateway) {
  if (!redis_server::available()) GTEST_SKIP() << "no redis-server";
  redis_server redis;
  const auto everything = "'" + test_program("everything-server") + "' --stdio";
  gateway_process holder(everything, {"--redis", redis.url(), "--session-timeout", "2"});
  gateway_process other(everything, {"--redis", redis.url(), "--session-timeout", "2"});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_holder(ex, holder.port);
    const auto session = co_await open_session(to_holder);
    http_connection listener(ex, other.port);
    co_await listener.write(mcp_get(session));
    CO_ASSERT_TRUE((co_await listener.read_head()).status == 200u);
    http_connection to_other(ex, other.port);
    // Requests keep the session, and the other gateway's copy, alive; the holder's goes idle.
    for (int i = 0; i < 8; ++i) {
      co_await to_other.send(session_post(rpc_request(10 + i, "ping"), session));
      co_await sleep_for(std::chrono::milliseconds(500));
    }
    const auto toggled =
        co_await to_other.send(session_post(rpc_request(2, "tools/call", tool_call("toggle_bonus", {})), session));
    EXPECT_EQ(answer_of(toggled, 2).at("result").at("content").at(0).at("text"), "bonus added") << toggled.body;
    bool told = false;
    const auto until = std::chrono::steady_clock::now() + 10s;
    while (!told && std::chrono::steady_clock::now() < until) {
      const auto message = co_await listener.next_message(5s);
      if (!message) break;
      const auto* method = message->as_object().if_contains("method");
      told = method && *method == "notifications/tools/list_changed";
    }
    EXPECT_TRUE(told) << "the list change did not reach the GET stream";
  }, 60s);
}

// Behind a load balancer that sends every request elsewhere (round robin),
// a session's calls keep their child, and what the upstream asks while a call
// runs reaches the client whichever gateway took the call.
TEST(GatewayReplicas, BehindARoundRobinBalancerASessionKeepsItsChildAndIsAsked) {
  if (!redis_server::available() || !haproxy::available()) GTEST_SKIP() << "no redis-server or haproxy";
  redis_server redis;
  const auto everything = "'" + test_program("everything-server") + "' --stdio";
  gateway_process one(everything, {"--redis", redis.url()});
  gateway_process two(everything, {"--redis", redis.url()});
  haproxy proxy({one.port, two.port});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_only());
    int asked = 0;
    c.on_elicitation([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      co_return json::object{{"action", "accept"}, {"content", {{"confirm", true}}}};
    });
    c.on_sampling([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      co_return json::object{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "four"}}}, {"model", "m"}};
    });
    http_client_options options;
    auto transport = co_await connect_http(ex, proxy.url("/mcp"), std::move(options));
    co_await c.connect(std::move(transport));
    // The toggle is the child's state: each call sees what the one before it did.
    std::vector<std::string> toggles;
    for (int i = 0; i < 4; ++i) toggles.push_back(first_text(co_await c.call_tool("toggle_bonus")));
    EXPECT_EQ(toggles, (std::vector<std::string>{"bonus added", "bonus removed", "bonus added", "bonus removed"}));
    for (int i = 0; i < 2; ++i) {  // one of each pair goes through the other gateway
      json::object question{{"question", "Ship it?"}};
      EXPECT_EQ(first_text(co_await c.call_tool("confirm", std::move(question))), "action=accept, confirm=true");
      json::object prompt{{"prompt", "2+2?"}};
      EXPECT_EQ(first_text(co_await c.call_tool("sample", std::move(prompt))), "LLM said: four");
    }
    EXPECT_EQ(asked, 4);
    co_await c.close();
  }, 60s);
  const auto stats = proxy.stats();  // both gateways took requests of the session
  ASSERT_EQ(stats.size(), 2u);
  EXPECT_GT(stats[0].total, 3);
  EXPECT_GT(stats[1].total, 3);
}

// A 2026-07-28 client in front of a session-based upstream: the gateway
// holds the call across the client's rounds, and the balancer sends the
// retry to the other gateway, which has the round served where the call is.
TEST(GatewayReplicas, AHeldCallsNextRoundIsServedWhereverTheRetryLands) {
  if (!redis_server::available() || !haproxy::available()) GTEST_SKIP() << "no redis-server or haproxy";
  redis_server redis;
  legacy_http_upstream legacy;
  // The key that seals the requestStates, the same in both gateways.
  const auto key_file = redis.directory() + "/request-state.key";
  std::ofstream(key_file) << std::string(64, 'a') << "\n";
  const std::vector<std::string> shared{"--redis", redis.url(), "--request-state-key-file", key_file};
  auto replica = [&] {
    auto args = shared;
    args.insert(args.begin(), {"--url", legacy.url});
    return gateway_arguments{args};
  };
  gateway_process one(replica());
  gateway_process two(replica());
  haproxy proxy({one.port, two.port});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex);
    int asked = 0;
    c.on_sampling([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      co_return sampling_answer("held and answered");
    });
    http_client_options options;
    auto transport = co_await connect_http(ex, proxy.url("/mcp"), std::move(options));
    co_await c.connect(std::move(transport));
    EXPECT_EQ(c.server().version, protocol_version::v2026_07_28);
    for (int i = 0; i < 3; ++i) {  // round robin: some retries land where their call is not
      const auto sampled = co_await c.call_tool("sample");
      EXPECT_NE(first_text(sampled).find("held and answered"), std::string::npos) << first_text(sampled);
    }
    EXPECT_EQ(asked, 3);
  }, 60s);
}

}  // namespace
}  // namespace mcp::test
