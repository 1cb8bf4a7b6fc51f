// Tasks in Redis (docs/scale-out.md, "Tasks"), against a redis-server of
// each test's own. The task store of caduceus::cluster (two redis_stores on
// one Redis are two nodes): what one records the other finds, puts that
// never reopen or revive a task, listings in creation order page by page,
// expiry with the task's ttl, and store_unavailable while Redis is down.
// Then two servers, each over HTTP with its own Redis stores, whose clients
// create a task through one and read, answer, cancel and wait for it
// through the other; and a task whose server died, failed by the other.

#include <mcp/client/client.hpp>
#include <mcp/cluster/redis.hpp>
#include <mcp/error.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/server/store_error.hpp>
#include <mcp/transport/http_client.hpp>

#include "cluster/redis/connection.hpp"

#include "redis_node.hpp"
#include "run_on_threads.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/parse.hpp>
#include <boost/system/system_error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace redis = mcp::detail::redis;
using mcp::test::eventually;
using mcp::test::redis_server;
using mcp::test::run_on_threads;
using mcp::test::sleep_for;
using namespace std::chrono_literals;

using mcp::test::quick_options;
using node = mcp::test::redis_node;

mcp::task_record sample_task(std::string id, std::string owner, std::chrono::milliseconds ttl) {
  mcp::task_record r;
  r.id = std::move(id);
  r.status = mcp::task_status::working;
  r.created_at = r.last_updated_at = std::chrono::system_clock::now();
  r.ttl = ttl;
  r.poll_interval = 250ms;
  r.owner = std::move(owner);
  r.version = "2026-07-28";
  r.node = "n0de";
  return r;
}

std::vector<std::string> ids_of(const mcp::task_record_page& page) {
  std::vector<std::string> ids;
  for (const auto& t : page.tasks) ids.push_back(t.id);
  return ids;
}

class RedisTaskStore : public mcp::test::redis_test {};

// Each co_await on its own line, its result named, no braced list, lambda or
// aggregate temporary inside a co_await expression (docs/compilers.md).

TEST_F(RedisTaskStore, ATaskCreatedByOneNodeIsFoundByAnotherAsWritten) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    auto record = sample_task("7a5c01", "principal:alice", 60s);
    record.status = mcp::task_status::input_required;
    record.status_message = "waiting for you";
    record.input_requests = json::parse(R"({"color":{"method":"elicitation/create","params":{"message":"Which?"}}})")
                                .as_object();
    // A double Boost.JSON 1.81 alone reads back one unit in the last place off.
    record.input_requests.at("color").at("params").as_object()["weight"] = 1.6666666666666665;
    co_await a.tasks().create(record);

    const auto found = co_await b.tasks().find("7a5c01");
    CO_ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->id, "7a5c01");
    EXPECT_EQ(found->status, mcp::task_status::input_required);
    EXPECT_EQ(found->status_message, "waiting for you");
    EXPECT_EQ(found->owner, "principal:alice");
    EXPECT_EQ(found->version, "2026-07-28");
    EXPECT_EQ(found->node, "n0de");
    EXPECT_EQ(found->ttl, std::optional(std::chrono::milliseconds(60s)));
    EXPECT_EQ(found->poll_interval, std::optional(std::chrono::milliseconds(250ms)));
    EXPECT_EQ(found->input_requests, record.input_requests);
    EXPECT_FALSE(found->result.has_value());
    EXPECT_FALSE(found->error.has_value());
    using std::chrono::milliseconds;
    using std::chrono::duration_cast;
    EXPECT_EQ(duration_cast<milliseconds>(found->created_at.time_since_epoch()),
              duration_cast<milliseconds>(record.created_at.time_since_epoch()));

    // In Redis under the prefix, expiring with the task, and in its owner's index.
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto status = co_await raw->command("HGET", "test:task:7a5c01", "status");
    EXPECT_EQ(status.as_string(), "input_required");
    const auto pttl = co_await raw->command("PTTL", "test:task:7a5c01");
    EXPECT_GT(pttl.as_integer(), 50000);
    EXPECT_LE(pttl.as_integer(), 60000);
    const auto indexed = co_await raw->command("ZRANGE", "test:tasks:principal:alice", "0", "-1");
    CO_ASSERT_TRUE(indexed.as_array().size() == 1u);
    EXPECT_EQ(indexed.at(0).as_string(), "7a5c01");
    raw->close();

    bool refused = false;
    try {
      co_await b.tasks().create(record);
    } catch (const mcp::invalid_argument&) {
      refused = true;
    }
    EXPECT_TRUE(refused) << "a second create of the same id was taken";
    const auto unknown = co_await a.tasks().find("no-such-task");
    EXPECT_FALSE(unknown.has_value());
  });
}

TEST_F(RedisTaskStore, APutReplacesTheRecordButNeverReopensOrRevivesATask) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    auto record = sample_task("f1", "", 60s);
    co_await a.tasks().create(record);

    record.status = mcp::task_status::completed;
    record.result = json::parse(R"({"content":[{"type":"text","text":"done"}]})").as_object();
    co_await a.tasks().put(record);
    const auto completed = co_await b.tasks().find("f1");
    CO_ASSERT_TRUE(completed.has_value());
    EXPECT_EQ(completed->status, mcp::task_status::completed);
    EXPECT_EQ(completed->result, record.result);

    // A finished task stays as it finished.
    auto late = record;
    late.status = mcp::task_status::working;
    late.result = std::nullopt;
    co_await b.tasks().put(late);
    const auto still = co_await a.tasks().find("f1");
    CO_ASSERT_TRUE(still.has_value());
    EXPECT_EQ(still->status, mcp::task_status::completed);
    EXPECT_EQ(still->result, record.result);

    // Cancelled through one node, then the runner's late result on the other.
    auto cancelled = sample_task("f2", "", 60s);
    co_await a.tasks().create(cancelled);
    cancelled.status = mcp::task_status::cancelled;
    co_await b.tasks().put(cancelled);
    auto runner = sample_task("f2", "", 60s);
    runner.status = mcp::task_status::completed;
    runner.result = record.result;
    co_await a.tasks().put(runner);
    const auto stays = co_await b.tasks().find("f2");
    CO_ASSERT_TRUE(stays.has_value());
    EXPECT_EQ(stays->status, mcp::task_status::cancelled);
    EXPECT_FALSE(stays->result.has_value());

    // A put of a task never created makes none.
    auto stranger = sample_task("f3", "", 60s);
    co_await a.tasks().put(stranger);
    const auto none = co_await b.tasks().find("f3");
    EXPECT_FALSE(none.has_value());

    // A put keeps the task's expiry.
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto pttl = co_await raw->command("PTTL", "test:task:f1");
    EXPECT_GT(pttl.as_integer(), 0);
    const auto exists = co_await raw->command("EXISTS", "test:task:f3");
    EXPECT_EQ(exists.as_integer(), 0);
    raw->close();
  });
}

TEST_F(RedisTaskStore, AnOwnersTasksAreListedInCreationOrderPageByPage) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    for (int i = 1; i <= 5; ++i) {
      auto mine = sample_task("a" + std::to_string(i), "session:alice", 60s);
      auto& creator = i % 2 ? a : b;  // both nodes create: one order
      co_await creator.tasks().create(mine);
      if (i <= 2) {
        auto theirs = sample_task("b" + std::to_string(i), "session:bob", 60s);
        co_await a.tasks().create(theirs);
      }
    }
    const auto first = co_await b.tasks().list("session:alice", "", 2);
    EXPECT_EQ(ids_of(first), (std::vector<std::string>{"a1", "a2"}));
    CO_ASSERT_TRUE(first.next_cursor.has_value());
    const auto second = co_await a.tasks().list("session:alice", *first.next_cursor, 2);
    EXPECT_EQ(ids_of(second), (std::vector<std::string>{"a3", "a4"}));
    CO_ASSERT_TRUE(second.next_cursor.has_value());
    const auto third = co_await b.tasks().list("session:alice", *second.next_cursor, 2);
    EXPECT_EQ(ids_of(third), (std::vector<std::string>{"a5"}));
    EXPECT_FALSE(third.next_cursor.has_value());

    const auto all = co_await a.tasks().list("session:alice", "", 100);
    EXPECT_EQ(ids_of(all), (std::vector<std::string>{"a1", "a2", "a3", "a4", "a5"}));
    const auto bobs = co_await a.tasks().list("session:bob", "", 100);
    EXPECT_EQ(ids_of(bobs), (std::vector<std::string>{"b1", "b2"}));
    const auto nobody = co_await a.tasks().list("session:carol", "", 100);
    EXPECT_TRUE(nobody.tasks.empty());
    EXPECT_FALSE(nobody.next_cursor.has_value());

    bool refused = false;
    try {
      const auto bad = co_await a.tasks().list("session:alice", "x1", 2);
      ADD_FAILURE() << bad.tasks.size();
    } catch (const mcp::invalid_argument&) {
      refused = true;
    }
    EXPECT_TRUE(refused) << "a cursor we never gave was taken";
  });
}

TEST_F(RedisTaskStore, ATaskExpiresWithItsTtlAndLeavesItsOwnersListing) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    auto brief = sample_task("e1", "session:dave", 300ms);
    co_await a.tasks().create(brief);
    auto lasting = sample_task("k1", "session:dave", 60s);
    co_await a.tasks().create(lasting);
    const auto there = co_await b.tasks().find("e1");
    EXPECT_TRUE(there.has_value());

    co_await sleep_for(500ms);
    const auto gone = co_await b.tasks().find("e1");
    EXPECT_FALSE(gone.has_value());
    brief.status = mcp::task_status::completed;
    co_await a.tasks().put(brief);  // the late runner: no revival
    const auto still_gone = co_await b.tasks().find("e1");
    EXPECT_FALSE(still_gone.has_value());

    const auto listed = co_await b.tasks().list("session:dave", "", 100);
    EXPECT_EQ(ids_of(listed), (std::vector<std::string>{"k1"}));
    // The listing pruned the index; the index expires with its last task.
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto members = co_await raw->command("ZCARD", "test:tasks:session:dave");
    EXPECT_EQ(members.as_integer(), 1);
    const auto pttl = co_await raw->command("PTTL", "test:tasks:session:dave");
    EXPECT_GT(pttl.as_integer(), 50000);
    raw->close();
  });
}

TEST_F(RedisTaskStore, WithRedisDownEveryCallThrowsStoreUnavailable) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server));
    auto record = sample_task("d1", "session:erin", 60s);
    co_await a.tasks().create(record);

    server->kill(SIGKILL);
    co_await sleep_for(50ms);  // the connection sees its socket close
    auto another = sample_task("d2", "session:erin", 60s);
    auto create = a.tasks().create(another);
    const auto create_failure = co_await mcp::test::store_failure_of(std::move(create));
    EXPECT_TRUE(create_failure.has_value());
    auto find = a.tasks().find("d1");
    const auto find_failure = co_await mcp::test::store_failure_of(std::move(find));
    EXPECT_TRUE(find_failure.has_value());
    auto put = a.tasks().put(record);
    const auto put_failure = co_await mcp::test::store_failure_of(std::move(put));
    EXPECT_TRUE(put_failure.has_value());
    auto list = a.tasks().list("session:erin", "", 10);
    const auto list_failure = co_await mcp::test::store_failure_of(std::move(list));
    EXPECT_TRUE(list_failure.has_value());
  });
}

// Two servers over HTTP, each with Redis stores of its own on one Redis.

asio::awaitable<void> work(std::chrono::milliseconds how_long) {
  const auto ex = co_await asio::this_coro::executor;
  asio::steady_timer timer(ex, how_long);
  co_await timer.async_wait(asio::use_awaitable);
}

struct task_node {
  task_node(asio::any_io_executor ex, const mcp::cluster::redis_options& redis)
      : tools({"tasks-cluster-test", "1.0.0"}, settings()), http(ex, tools, http_options(redis)) {
    add("ask", [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
      co_await work(50ms);  // becomes a task first, then asks
      auto form = json::parse(R"({"type":"object","properties":{"color":{"type":"string"}}})").as_object();
      const auto answer = co_await ctx.elicit("Which color?", std::move(form));
      const auto* content = answer.if_contains("content");
      std::string color = content ? std::string(content->at("color").as_string()) : "(none)";
      co_return mcp::call_tool_result::text("color: " + color);
    });
    add("slow", [this](const json::object& args, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
      const auto ms = args.contains("ms") ? args.at("ms").to_number<int>() : 200;
      bool cancelled = false;
      try {
        co_await work(std::chrono::milliseconds(ms));
      } catch (const boost::system::system_error&) {
        cancelled = true;
      }
      if (cancelled) slow_cancelled = true;
      ++slow_ended;
      if (cancelled) throw boost::system::system_error(asio::error::operation_aborted);
      co_return mcp::call_tool_result::text("slept " + std::to_string(ms) + " ms");
    });
    asio::co_spawn(ex, http.run(), [this](std::exception_ptr) { stopped = true; });
  }

  static mcp::server_options settings() {
    mcp::server_options options;
    options.tasks.poll_interval = 50ms;
    return options;
  }
  static mcp::http_server_options http_options(const mcp::cluster::redis_options& redis) {
    mcp::http_server_options options;
    options.port = 0;
    options.threads = 1;
    options.make_stores = mcp::cluster::make_redis_stores(redis);  // the task store too
    return options;
  }

  void add(std::string name, mcp::tool_handler handler) {
    mcp::tool_info info;
    info.name = std::move(name);
    info.description = "a task test tool";
    info.input_schema = json::parse(R"({"type":"object","properties":{"ms":{"type":"integer"}}})").as_object();
    info.task_support = mcp::task_support::optional;
    tools.add_tool(std::move(info), std::move(handler));
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(http.local_port()) + "/mcp"; }

  // Stops the HTTP server and waits for it (its stores close with it).
  asio::awaitable<void> stop() {
    if (!stopped) http.stop();
    for (int i = 0; i < 400 && !stopped; ++i) co_await sleep_for(10ms);
  }

  std::atomic<bool> stopped{false};
  std::atomic<bool> slow_cancelled{false};
  std::atomic<int> slow_ended{0};
  mcp::server tools;
  mcp::http_server http;
};

// A client whose elicitation handler answers `color`.
asio::awaitable<std::unique_ptr<mcp::client>> connected(const task_node& n, std::string color) {
  const auto ex = co_await asio::this_coro::executor;
  mcp::client_options defaults;  // (named: no aggregate is built in a co_await line)
  auto c = std::make_unique<mcp::client>(ex, std::move(defaults));
  c->on_elicitation([color](json::object) -> asio::awaitable<json::object> {
    json::object answer{{"action", "accept"}, {"content", {{"color", color}}}};
    co_return answer;
  });
  auto url = n.url();
  auto transport = co_await mcp::connect_http(ex, std::move(url));
  co_await c->connect(std::move(transport));
  co_return c;
}

class TasksAcrossNodes : public RedisTaskStore {
 protected:
  // Runs `body` with two nodes once both have joined the cluster; stops
  // both however it ends. (The server's channel is subscribed once its
  // tasks have joined: the tasks channel itself may show both subscribers
  // a moment before the second has taken its bus.)
  void run_nodes(std::function<asio::awaitable<void>(task_node&, task_node&)> body) {
    mcp::test::run_test(
        [&]() -> asio::awaitable<void> {
          const auto ex = co_await asio::this_coro::executor;
          const auto options = quick_options(*server);
          task_node a(ex, options), b(ex, options);
          std::exception_ptr failure;
          try {
            auto raw = redis::connection::create(ex, redis::config::from_url(server->url()));
            std::int64_t listening = 0;
            for (int i = 0; i < 200 && listening < 2; ++i) {
              const auto numsub = co_await raw->command("PUBSUB", "NUMSUB", "test:bus:server");
              listening = numsub.at(1).as_integer();
              if (listening < 2) co_await sleep_for(10ms);
            }
            raw->close();
            if (listening < 2) throw std::runtime_error("the nodes did not join the cluster");
            co_await body(a, b);
          } catch (...) {
            failure = std::current_exception();
          }
          co_await a.stop();
          co_await b.stop();
          if (failure) std::rethrow_exception(failure);
        },
        30s);
  }
};

TEST_F(TasksAcrossNodes, ATaskRunOnOneNodeIsReadAnsweredAndAwaitedThroughAnother) {
  run_nodes([](task_node& a, task_node& b) -> asio::awaitable<void> {
    auto creator = co_await connected(a, "crimson");
    const auto task = co_await creator->call_tool_as_task("ask");
    CO_ASSERT_TRUE(!task.id.empty());
    EXPECT_EQ(task.status, mcp::task_status::working);

    auto other = co_await connected(b, "teal");
    const auto seen = co_await other->get_task(task.id);
    EXPECT_EQ(seen.id, task.id);
    std::vector<std::string> statuses;
    mcp::task_wait_options wait;
    wait.timeout = 10s;
    wait.on_status = [&](const mcp::task_info& t) { statuses.push_back(std::string(mcp::to_string(t.status))); };
    // Through b: tasks/get polls, and tasks/update carries b's client's
    // answer to a, which runs the task.
    const auto result = co_await other->wait_for_task(task.id, std::move(wait));
    EXPECT_EQ(result.text_content(), "color: teal");
    EXPECT_NE(std::ranges::find(statuses, "input_required"), statuses.end());

    const auto on_a = co_await creator->get_task(task.id);
    EXPECT_EQ(on_a.status, mcp::task_status::completed);
    CO_ASSERT_TRUE(on_a.result.has_value());
    co_await creator->close();
    co_await other->close();
  });
}

TEST_F(TasksAcrossNodes, ACancellationSentToAnotherNodeStopsTheTaskWhereItRuns) {
  run_nodes([](task_node& a, task_node& b) -> asio::awaitable<void> {
    auto creator = co_await connected(a, "crimson");
    json::object args{{"ms", 60000}};
    const auto task = co_await creator->call_tool_as_task("slow", std::move(args));
    CO_ASSERT_TRUE(!task.id.empty());

    auto other = co_await connected(b, "teal");
    co_await other->cancel_task(task.id);
    const auto now = co_await other->get_task(task.id);
    EXPECT_EQ(now.status, mcp::task_status::cancelled);  // at once: in the store before the answer
    auto stopped_on_a = [&] { return a.slow_cancelled.load(); };
    const bool stopped = co_await eventually(stopped_on_a);
    EXPECT_TRUE(stopped) << "the handler on the node that runs the task was not cancelled";
    const auto on_a = co_await creator->get_task(task.id);
    EXPECT_EQ(on_a.status, mcp::task_status::cancelled);

    bool failed = false;
    try {
      const auto result = co_await other->wait_for_task(task.id);
      ADD_FAILURE() << result.text_content();
    } catch (const mcp::task_error& e) {
      failed = true;
      EXPECT_EQ(e.task().status, mcp::task_status::cancelled);
    }
    EXPECT_TRUE(failed);
    co_await creator->close();
    co_await other->close();
  });
}

TEST_F(TasksAcrossNodes, ATaskWhoseNodeDiedIsFailedByAnother) {
  run_nodes([](task_node& a, task_node& b) -> asio::awaitable<void> {
    auto creator = co_await connected(a, "crimson");
    json::object args{{"ms", 1500}};
    const auto task = co_await creator->call_tool_as_task("slow", std::move(args));
    CO_ASSERT_TRUE(!task.id.empty());
    co_await creator->close();
    co_await a.stop();  // its heartbeat ends with its stores; the handler runs on, unheard

    auto other = co_await connected(b, "teal");
    std::string status = "working";
    for (int i = 0; i < 100 && status == "working"; ++i) {
      const auto now = co_await other->get_task(task.id);
      status = std::string(mcp::to_string(now.status));
      if (status == "working") co_await sleep_for(50ms);
    }
    EXPECT_EQ(status, "failed");
    bool failed = false;
    try {
      const auto result = co_await other->wait_for_task(task.id);
      ADD_FAILURE() << result.text_content();
    } catch (const mcp::task_error& e) {
      failed = true;
      EXPECT_EQ(e.task().status, mcp::task_status::failed);
    }
    EXPECT_TRUE(failed);
    co_await other->close();
    // The handler ends on a (its late result is refused or lost) before a goes.
    auto ended = [&] { return a.slow_ended.load() == 1; };
    const bool handler_ended = co_await eventually(ended);
    EXPECT_TRUE(handler_ended);
  });
}

}  // namespace
