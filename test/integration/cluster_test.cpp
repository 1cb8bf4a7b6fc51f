// Replicas as docs/scale-out.md runs them, as real processes: three
// everything-server nodes sharing a redis-server (--redis), behind HAProxy
// balancing every request round robin with no stickiness, driven by our
// client through HAProxy. What a client sees when each request may reach any
// node; when the node running its call is killed; when Redis is frozen or
// killed; when a node is stuck. (The same routing with two servers in one
// process: http_cluster_test.cpp.) Skipped without redis-server or haproxy.

#include <mcp/client/client.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/transport/http_client.hpp>

#include "child_process.hpp"
#include "everything_replicas.hpp"
#include "http_client.hpp"
#include "legacy_client.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

using clock_type = std::chrono::steady_clock;

#define SKIP_WITHOUT_CLUSTER()                                                 \
  if (const auto why = everything_replicas::missing(); !why.empty()) {         \
    GTEST_SKIP() << why;                                                       \
  }

/// A client of a session (legacy era: sessions are what replicas share)
/// through HAProxy.
asio::awaitable<std::unique_ptr<client>> connect_session(std::string url) {
  auto ex = co_await asio::this_coro::executor;
  auto transport = co_await connect_http(ex, std::move(url));
  auto c = std::make_unique<client>(ex, legacy_only());
  co_await c->connect(std::move(transport));
  co_return c;
}

call_options within(std::chrono::milliseconds limit) {
  call_options options;
  options.timeout = limit;
  return options;
}

asio::awaitable<std::string> echo(client& c, std::string text) {
  json::object args{{"text", std::move(text)}};
  auto options = within(10s);
  auto result = co_await c.call_tool("echo", std::move(args), std::move(options));
  co_return first_text(result);
}

asio::awaitable<double> add(client& c, double a, double b) {
  json::object args{{"a", a}, {"b", b}};
  auto options = within(10s);
  auto result = co_await c.call_tool("add", std::move(args), std::move(options));
  co_return result.structured_content.value().at("sum").to_number<double>();
}

/// What became of a call run in the background.
struct outcome {
  bool done = false;
  std::string text;         // its result's text
  std::optional<int> code;  // the JSON-RPC error it failed with
  std::string error;        // what it failed with
  std::vector<double> progress;
  clock_type::time_point finished;
};

asio::awaitable<void> run_long_task(client& c, int steps, int step_ms, std::shared_ptr<outcome> out) {
  call_options options;
  options.timeout = 30s;
  options.on_progress = [out](const progress_update& p) { out->progress.push_back(p.progress); };
  json::object args{{"steps", steps}, {"step_ms", step_ms}};
  try {
    auto result = co_await c.call_tool("long_task", std::move(args), std::move(options));
    out->text = first_text(result);
  } catch (const protocol_error& e) {
    out->code = e.error().code;
    out->error = e.what();
  } catch (const std::exception& e) {
    out->error = e.what();
  }
  out->finished = clock_type::now();
  out->done = true;
}

/// Waits (polling every 20 ms) until `ready()` or `limit` passes; true when ready.
template <class Ready>
asio::awaitable<bool> eventually(Ready ready, std::chrono::milliseconds limit) {
  const auto until = clock_type::now() + limit;
  for (;;) {
    if (ready()) co_return true;
    if (clock_type::now() >= until) co_return false;
    co_await sleep_for(20ms);
  }
}

/// Requests HAProxy has given each node so far.
std::vector<long> served(const haproxy& proxy) {
  std::vector<long> totals;
  for (const auto& stat : proxy.stats()) totals.push_back(stat.total);
  return totals;
}

/// Only node `index` takes new requests (the others are in maintenance).
void only(const haproxy& proxy, std::size_t index, std::size_t nodes) {
  for (std::size_t i = 0; i < nodes; ++i)
    if (i != index) proxy.disable(i);
  proxy.enable(index);
}

/// Every node but `index` takes new requests again, and `index` none; waits
/// for them to be UP.
void all_but(const haproxy& proxy, std::size_t index, std::size_t nodes) {
  for (std::size_t i = 0; i < nodes; ++i)
    if (i != index) proxy.enable(i);
  for (std::size_t i = 0; i < nodes; ++i) {
    if (i != index) {
      EXPECT_TRUE(proxy.wait_for_status(i, "UP", 5s)) << haproxy::server_name(i) << " not UP";
    }
  }
  proxy.disable(index);
}

void run_cluster_test(std::function<asio::awaitable<void>()> body, std::chrono::milliseconds limit = 60s) {
  run_test(std::move(body), limit);
}

// --- a: our client through HAProxy ----------------------------------------------------

TEST(Cluster, CallsAndProgressSpreadOverTheNodes) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(3);
  auto& proxy = *cluster.proxy;
  run_cluster_test([&]() -> asio::awaitable<void> {
    auto c = co_await connect_session(cluster.url());
    const auto before = served(proxy);
    for (int i = 0; i < 30; ++i) {
      if (i % 2 == 0) {
        const auto text = "call " + std::to_string(i);
        const auto answer = co_await echo(*c, text);
        EXPECT_EQ(answer, text);
      } else {
        const double sum = co_await add(*c, i, 0.5);
        EXPECT_EQ(sum, i + 0.5);
      }
    }
    // Round robin per request: every node served some of the 30 calls.
    const auto after = served(proxy);
    int nodes_used = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
      EXPECT_GE(after[i] - before[i], 5) << haproxy::server_name(i) << "\n" << cluster.logs();
      if (after[i] > before[i]) ++nodes_used;
    }
    EXPECT_EQ(nodes_used, 3);

    // Progress comes in order on the call's stream.
    auto task = std::make_shared<outcome>();
    co_await run_long_task(*c, 10, 30, task);
    EXPECT_EQ(task->text, "completed 10 steps") << task->error;
    EXPECT_EQ(task->progress, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
    co_await c->close();
  });
  EXPECT_TRUE(cluster.node(0).running() && cluster.node(1).running() && cluster.node(2).running());
}

TEST(Cluster, ElicitationAnswerPostedToAnotherNodeReachesTheTool) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(3);
  auto& proxy = *cluster.proxy;
  run_cluster_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto transport = co_await connect_http(ex, cluster.url());
    client c(ex, legacy_only());
    std::vector<long> when_asked;
    // The tool runs on node1; the question reaches us on its stream; our
    // answer is then posted where node1 takes nothing: node2 or node3.
    c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
      EXPECT_EQ(params.at("message").as_string(), "Really?");
      all_but(proxy, 0, 3);
      when_asked = served(proxy);
      json::object answer{{"action", "accept"}, {"content", json::object{{"confirm", true}}}};
      co_return answer;
    });
    co_await c.connect(std::move(transport));
    only(proxy, 0, 3);
    json::object args{{"question", "Really?"}};
    auto options = within(15s);
    auto result = co_await c.call_tool("confirm", std::move(args), std::move(options));
    EXPECT_EQ(first_text(result), "action=accept, confirm=true");
    const auto after = served(proxy);
    CO_ASSERT_TRUE(when_asked.size() == 3);
    EXPECT_EQ(after[0], when_asked[0]) << "node1 took a new request\n" << cluster.logs();
    EXPECT_GT(after[1] + after[2], when_asked[1] + when_asked[2]) << "the answer went nowhere\n" << cluster.logs();
    proxy.enable(0);
    const auto still = co_await echo(c, "after");
    EXPECT_EQ(still, "after");
    co_await c.close();
  });
}

// 2026-07-28: no session; a tool's question comes back as an input_required
// result with a requestState that the node signed, and the retry with the
// answer is served by another node, which opens it with the shared key.
TEST(Cluster, ModernRetryOpensRequestStateSealedByAnotherNode) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(3);
  auto& proxy = *cluster.proxy;
  run_cluster_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto transport = co_await connect_http(ex, cluster.url());
    client c(ex);  // the modern era first
    int asked = 0;
    c.on_elicitation([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      all_but(proxy, 0, 3);  // the retry goes to node2 or node3
      json::object answer{{"action", "accept"}, {"content", json::object{{"confirm", false}}}};
      co_return answer;
    });
    co_await c.connect(std::move(transport));
    only(proxy, 0, 3);
    json::object args{{"question", "Sure?"}};
    auto options = within(15s);
    auto result = co_await c.call_tool("confirm", std::move(args), std::move(options));
    EXPECT_EQ(first_text(result), "action=accept, confirm=false");
    EXPECT_EQ(asked, 1);
    proxy.enable(0);
    co_await c.close();
  });
}

// --- c: the node running a call is killed -----------------------------------------------

// Node1 runs a long call (20 steps of 100 ms) of a session; node2 and node3
// run four more of it; another session waits. Node1 is killed (SIGKILL)
// after about 3 steps. The client resumes the call's stream through HAProxy
// (after the server's retry, 1 s) and must get the progress recorded so
// far, each update once, then the error the resuming node records for the
// request the dead node owed. With `late`, HAProxy is frozen for 4 s right
// after the kill, so that the resumption reaches a node after the dead
// node's heartbeat has expired (node_ttl, 3 s).
void kill_the_node_running_a_call(bool late) {
  everything_replicas cluster(3);
  auto& proxy = *cluster.proxy;
  run_cluster_test(
      [&]() -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        auto c = co_await connect_session(cluster.url());
        auto other = co_await connect_session(cluster.url());  // another session, untouched by the kill
        const auto warm = co_await echo(*c, "before");
        EXPECT_EQ(warm, "before");

        // The long task starts on node1 (the others take nothing for a moment).
        only(proxy, 0, 3);
        auto task = std::make_shared<outcome>();
        asio::co_spawn(ex, run_long_task(*c, 20, 100, task), asio::detached);
        auto three_steps = [&] { return task->progress.size() >= 3; };  // (named: docs/compilers.md)
        const bool started = co_await eventually(three_steps, 5s);
        CO_ASSERT_TRUE(started);
        // More calls in flight, on node2 and node3.
        all_but(proxy, 0, 3);
        std::vector<std::shared_ptr<outcome>> others;
        for (int i = 0; i < 4; ++i) {
          others.push_back(std::make_shared<outcome>());
          asio::co_spawn(ex, run_long_task(*c, 15, 100, others.back()), asio::detached);
        }
        co_await sleep_for(300ms);
        proxy.enable(0);  // back in the rotation: HAProxy finds it dead by itself
        EXPECT_TRUE(proxy.wait_for_status(0, "UP", 5s));

        const auto progress_at_kill = task->progress.size();
        cluster.node(0).kill(SIGKILL);
        const auto killed = clock_type::now();
        if (late) {
          proxy.kill(SIGSTOP);
          co_await sleep_for(4s);
          proxy.kill(SIGCONT);
        }
        EXPECT_TRUE(proxy.wait_for_status(0, "DOWN", 5s)) << "HAProxy did not take the dead node out";

        auto task_done = [&] { return task->done; };
        const bool answered = co_await eventually(task_done, 35s);
        if (!answered) {
          ADD_FAILURE() << "the call neither failed nor succeeded within 35 s of the kill; progress: "
                        << task->progress.size() << " updates (" << progress_at_kill << " before the kill)\n"
                        << cluster.logs();
          co_return;
        }
        // The error the resuming node recorded for the request node1 owed.
        EXPECT_EQ(task->code, -32603) << task->error << " / " << task->text << "\n" << cluster.logs();
        EXPECT_NE(task->error.find("stopped before it answered"), std::string::npos) << task->error;
        EXPECT_EQ(task->text, "");
        std::cerr << "[ info ] the call failed " << std::chrono::duration_cast<std::chrono::milliseconds>(task->finished - killed).count()
                  << " ms after the kill, after " << task->progress.size() << " progress updates ("
                  << progress_at_kill << " before the kill): " << task->error << "\n";
        // Every update once, in order, and not the whole run.
        EXPECT_TRUE(std::adjacent_find(task->progress.begin(), task->progress.end(),
                                       [](double a, double b) { return b <= a; }) == task->progress.end())
            << "progress repeated or out of order";
        EXPECT_GE(task->progress.size(), progress_at_kill);
        EXPECT_LT(task->progress.size(), 20u);

        // The calls of node2 and node3 end well.
        for (std::size_t i = 0; i < others.size(); ++i) {
          auto other_done = [&] { return others[i]->done; };
          const bool done = co_await eventually(other_done, 20s);
          CO_ASSERT_TRUE(done);
          EXPECT_EQ(others[i]->text, "completed 15 steps") << "call " << i << ": " << others[i]->error;
          EXPECT_EQ(others[i]->progress.size(), 15u) << "call " << i;
        }
        // New calls, in this session and the other, go to the two live nodes.
        for (int i = 0; i < 10; ++i) {
          const auto text = "after " + std::to_string(i);
          const auto mine = co_await echo(*c, text);
          EXPECT_EQ(mine, text);
          const auto theirs = co_await echo(*other, text);
          EXPECT_EQ(theirs, text);
        }
        co_await c->close();
        co_await other->close();
      },
      120s);
  EXPECT_EQ(cluster.node(0).exit_code(), 128 + SIGKILL);
  EXPECT_TRUE(cluster.node(1).running() && cluster.node(2).running()) << cluster.logs();
}

TEST(Cluster, KilledNodesCallFailsClearlyWhenResumedAfterItsHeartbeatExpired) {
  SKIP_WITHOUT_CLUSTER();
  kill_the_node_running_a_call(true);
}

// The client resumes 1 s after the kill, while the dead node's heartbeat
// still holds (3 s): the resuming node takes the writer for alive and
// relays its stream, checks the writer every second, lets the response go
// once the heartbeat has expired, and the client's next resumption gets the
// error.
TEST(Cluster, KilledNodesCallFailsClearlyWhenResumedAtOnce) {
  SKIP_WITHOUT_CLUSTER();
  kill_the_node_running_a_call(false);
}

// Opens `count` sessions one after another on connections of their own
// (through HAProxy: every request may reach another node); returns the
// statuses `notifications/initialized` got that were not 202.
asio::awaitable<std::vector<unsigned>> open_sessions(std::uint16_t port, int count) {
  std::vector<unsigned> refused;
  for (int i = 0; i < count; ++i) {
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto opening = mcp_post(init);
    const auto opened = co_await http_call(port, opening);
    const auto id = opened.header("Mcp-Session-Id");
    const auto note = rpc_notification("notifications/initialized");
    auto ready = mcp_post(note, id);
    ready.header("MCP-Protocol-Version", "2025-11-25");
    const auto acknowledged = co_await http_call(port, ready);
    if (acknowledged.status != 202) refused.push_back(acknowledged.status);
  }
  co_return refused;
}

TEST(Cluster, SessionsOpenedAtOnceAreFoundByTheirNextRequestOnAnyNode) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(3);
  run_cluster_test([&]() -> asio::awaitable<void> {
    // 8 clients at once, 15 sessions each: the answer to initialize goes out
    // only once the session is recorded, so the next request finds it.
    const auto port = static_cast<std::uint16_t>(cluster.proxy->port());
    auto ex = co_await asio::this_coro::executor;
    std::vector<std::shared_ptr<std::vector<unsigned>>> results;
    auto done = std::make_shared<int>(0);
    for (int client = 0; client < 8; ++client) {
      auto result = std::make_shared<std::vector<unsigned>>();
      results.push_back(result);
      asio::co_spawn(ex, open_sessions(port, 15), [result, done](std::exception_ptr e, std::vector<unsigned> refused) {
        *result = e ? std::vector<unsigned>{0} : std::move(refused);
        ++*done;
      });
    }
    while (*done < 8) co_await sleep_for(20ms);
    for (const auto& result : results) EXPECT_TRUE(result->empty()) << result->size() << " refused, first " << result->front();
  });
}

// --- d: Redis is down for a while -------------------------------------------------------

/// Echo calls until one is answered within `limit`; the last failure otherwise.
asio::awaitable<std::string> until_served(client& c, std::chrono::milliseconds limit) {
  const auto until = clock_type::now() + limit;
  std::string failure;
  for (;;) {
    try {
      const auto answer = co_await echo(c, "back");
      if (answer == "back") co_return "";
      failure = "answered " + answer;
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (clock_type::now() >= until) co_return failure.empty() ? "not served" : failure;
    co_await sleep_for(200ms);
  }
}

/// What an echo call fails with ("" when it is answered).
asio::awaitable<std::string> echo_failure(client& c, std::optional<int>& code) {
  try {
    co_await echo(c, "while down");
  } catch (const protocol_error& e) {
    code = e.error().code;
    co_return std::string(e.what()) + " " + json::serialize(e.error().data);
  } catch (const std::exception& e) {
    co_return e.what();
  }
  co_return "";
}

TEST(Cluster, RedisFrozenOrKilledFailsRequestsThenServiceComesBack) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(3);
  run_cluster_test(
      [&]() -> asio::awaitable<void> {
        auto c = co_await connect_session(cluster.url());
        const auto first = co_await echo(*c, "up");
        EXPECT_EQ(first, "up");

        // Frozen: a command is failed at its deadline (2 s), the request with 503.
        cluster.redis.kill(SIGSTOP);
        for (int i = 0; i < 3; ++i) {
          std::optional<int> code;
          const auto started = clock_type::now();
          const auto failure = co_await echo_failure(*c, code);
          EXPECT_NE(failure, "") << "answered while Redis was frozen";
          EXPECT_LT(clock_type::now() - started, 8s) << failure;
          EXPECT_NE(failure.find("503"), std::string::npos) << failure;
          std::cerr << "[ info ] Redis frozen: " << failure << "\n";
        }
        cluster.redis.kill(SIGCONT);
        const auto after_freeze = co_await until_served(*c, 15s);
        EXPECT_EQ(after_freeze, "") << cluster.logs();

        // Killed: requests fail at once; after a restart (same port, same
        // append-only file) service comes back by itself.
        cluster.redis.kill(SIGKILL);
        co_await sleep_for(200ms);
        {
          std::optional<int> code;
          const auto started = clock_type::now();
          const auto failure = co_await echo_failure(*c, code);
          EXPECT_NE(failure, "") << "answered while Redis was dead";
          EXPECT_LT(clock_type::now() - started, 8s) << failure;
          EXPECT_NE(failure.find("503"), std::string::npos) << failure;
          std::cerr << "[ info ] Redis killed: " << failure << "\n";
        }
        co_await sleep_for(1s);
        cluster.redis.restart();
        const auto after_restart = co_await until_served(*c, 15s);
        EXPECT_EQ(after_restart, "") << cluster.logs();
        co_await c->close();
      },
      90s);
  for (std::size_t i = 0; i < cluster.size(); ++i)
    EXPECT_TRUE(cluster.node(i).running()) << haproxy::server_name(i) << " died\n" << cluster.logs();
}

// --- e: a node is stuck ----------------------------------------------------------------

TEST(Cluster, StuckNodeIsTakenOutAndTheOthersServe) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(3);
  auto& proxy = *cluster.proxy;
  run_cluster_test(
      [&]() -> asio::awaitable<void> {
        auto c = co_await connect_session(cluster.url());
        const auto first = co_await echo(*c, "up");
        EXPECT_EQ(first, "up");

        cluster.node(1).kill(SIGSTOP);
        const auto stopped = clock_type::now();
        const bool out = proxy.wait_for_status(1, "DOWN", 5s);
        EXPECT_TRUE(out) << "HAProxy kept the stuck node";
        std::cerr << "[ info ] the stuck node was out after "
                  << std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - stopped).count()
                  << " ms\n";
        const auto before = served(proxy);
        const auto calls_started = clock_type::now();
        for (int i = 0; i < 20; ++i) {
          const auto text = "stuck " + std::to_string(i);
          const auto answer = co_await echo(*c, text);
          EXPECT_EQ(answer, text);
        }
        EXPECT_LT(clock_type::now() - calls_started, 10s);
        const auto after = served(proxy);
        EXPECT_EQ(after[1], before[1]);
        EXPECT_GT(after[0], before[0]);
        EXPECT_GT(after[2], before[2]);

        cluster.node(1).kill(SIGCONT);
        EXPECT_TRUE(proxy.wait_for_status(1, "UP", 5s)) << "the node did not come back";
        for (int i = 0; i < 6; ++i) {
          const auto answer = co_await echo(*c, "again");
          EXPECT_EQ(answer, "again");
        }
        co_await c->close();
      },
      60s);
}

// --- caduceus serve-demo --redis --------------------------------------------------------

TEST(Cluster, ServeDemoReplicasShareSessions) {
  SKIP_WITHOUT_CLUSTER();
  everything_replicas cluster(2, {test_program("caduceus"), "serve-demo"});
  auto& proxy = *cluster.proxy;
  run_cluster_test([&]() -> asio::awaitable<void> {
    auto c = co_await connect_session(cluster.url());
    const auto before = served(proxy);
    for (int i = 0; i < 8; ++i) {
      const auto text = "demo " + std::to_string(i);
      const auto answer = co_await echo(*c, text);
      EXPECT_EQ(answer, text);
    }
    const auto after = served(proxy);
    EXPECT_GT(after[0], before[0]);
    EXPECT_GT(after[1], before[1]);
    co_await c->close();
  });
  // And the command-line client through HAProxy.
  const auto r = run_command({test_program("caduceus"), "--url", cluster.url(), "call", "echo",
                              R"({"text": "through haproxy"})"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "through haproxy\n");
}

}  // namespace
}  // namespace mcp::test
