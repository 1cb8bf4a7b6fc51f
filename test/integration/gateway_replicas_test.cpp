// `caduceus gateway --redis URL`: replicas sharing their sessions through a
// real redis-server, as behind a load balancer that sends each request where
// it likes. A session's child lives in the replica that opened the session;
// its requests through another replica reach that same child, with their
// progress, and the holder's death (kill -9) is a clear error there.

#include "caduceus_cli.hpp"
#include "http_client.hpp"
#include "http_test_server.hpp"
#include "redis_server.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <csignal>
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

}  // namespace
}  // namespace mcp::test
