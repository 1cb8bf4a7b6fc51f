// Tasks end to end over Streamable HTTP on 127.0.0.1 (docs/tasks.md): our
// client against our server, in both eras on one endpoint: the tasks
// extension of 2026-07-28 (server-directed tasks, tasks/get polling,
// inputRequests answered with tasks/update) and the tasks of 2025-11-25
// (params.task, tasks/result with the task's requests on its stream,
// tasks/list, status notifications). A task outlives the connection that
// started it.

#include <mcp/client/client.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http_client.hpp>

#include "http_test_server.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <utility>
#include <vector>

namespace mcp::test {
namespace {

using namespace std::chrono_literals;

json::object schema(std::string_view text) { return json::parse(text).as_object(); }

asio::awaitable<void> work(std::chrono::milliseconds how_long) {
  const auto ex = co_await asio::this_coro::executor;
  asio::steady_timer timer(ex, how_long);
  co_await timer.async_wait(asio::use_awaitable);
}

// A server with tools that run as tasks, on the test's executor or on
// threads of its own (CADUCEUS_TEST_SERVER_THREADS: the ThreadSanitizer job
// runs it on 4, where a task runs on its session's strand while other
// connections read, answer and cancel it on theirs).
struct task_server {
  explicit task_server(asio::any_io_executor ex)
      : own(test_server_threads() > 1 ? std::make_unique<server_threads>(test_server_threads()) : nullptr),
        tools({"tasks-test", "1.0.0"}, settings()), http(own ? own->executor() : ex, tools, http_options()) {
    add("slow", R"({"type":"object","properties":{"ms":{"type":"integer"}}})", task_support::optional,
        [](const json::object& args, request_context&) -> asio::awaitable<call_tool_result> {
          const auto ms = args.contains("ms") ? args.at("ms").to_number<int>() : 200;
          co_await work(std::chrono::milliseconds(ms));
          co_return call_tool_result::text("slept " + std::to_string(ms) + " ms");
        });
    add("ask", R"({"type":"object","properties":{}})", task_support::optional,
        [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
          co_await work(50ms);  // becomes a task first, then asks
          json::object form = schema(R"({"type":"object","properties":{"color":{"type":"string"}}})");
          const auto answer = co_await ctx.elicit("Which color?", std::move(form));
          const auto* content = answer.if_contains("content");
          std::string color = content ? std::string(content->at("color").as_string()) : "(none)";
          co_return call_tool_result::text("color: " + color);
        });
    add("crash", R"({"type":"object","properties":{}})", task_support::optional,
        [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
          co_await work(20ms);
          throw protocol_error(errc::internal_error, "the worker crashed");
        });
    add("only_task", R"({"type":"object","properties":{}})", task_support::required,
        [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
          co_await work(20ms);
          co_return call_tool_result::text("done as a task");
        });
    add("never_task", R"({"type":"object","properties":{}})", task_support::forbidden,
        [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
          co_return call_tool_result::text("done at once");
        });
    asio::co_spawn(own ? own->executor() : ex, http.run(), asio::detached);
  }
  ~task_server() {
    if (own) own->join();  // its threads end before the tools go
  }

  static server_options settings() {
    server_options options;
    options.tasks.poll_interval = 50ms;
    return options;
  }
  static http_server_options http_options() {
    http_server_options options;
    options.port = 0;
    if (test_server_threads() > 1) options.threads = test_server_threads();
    return options;
  }

  void add(std::string name, std::string_view input, task_support support, tool_handler handler) {
    tool_info info;
    info.name = std::move(name);
    info.description = "a task test tool";
    info.input_schema = schema(input);
    info.task_support = support;
    tools.add_tool(std::move(info), std::move(handler));
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(http.local_port()) + "/mcp"; }

  std::unique_ptr<server_threads> own;  // first: the server and the tools go before its io_context
  mcp::server tools;
  http_server http;
};

client_options legacy_client() {
  client_options options;
  options.versions.assign(legacy_versions().begin(), legacy_versions().end());
  return options;
}

asio::awaitable<std::unique_ptr<client>> connected(const task_server& server, client_options options) {
  const auto ex = co_await asio::this_coro::executor;
  auto c = std::make_unique<client>(ex, std::move(options));
  c->on_elicitation([](json::object) -> asio::awaitable<json::object> {
    json::object answer{{"action", "accept"}, {"content", {{"color", "teal"}}}};
    co_return answer;
  });
  auto url = server.url();
  auto transport = co_await connect_http(ex, std::move(url));
  co_await c->connect(std::move(transport));
  co_return c;
}

asio::awaitable<std::unique_ptr<client>> connected(const task_server& server) {
  client_options defaults;  // (named: no aggregate is built in a co_await line, docs/compilers.md)
  co_return co_await connected(server, std::move(defaults));
}

// Runs `body` with a fresh server, stopped however the body ends.
void run_tasks_test(std::function<asio::awaitable<void>(task_server&)> body) {
  run_test([&]() -> asio::awaitable<void> {
    task_server server(co_await asio::this_coro::executor);
    std::exception_ptr failure;
    try {
      co_await body(server);
    } catch (...) {
      failure = std::current_exception();
    }
    server.http.stop();
    co_await sleep_for(50ms);
    if (failure) std::rethrow_exception(failure);
  });
}

TEST(TasksExtension, ACallBecomesATaskThatAnotherConnectionWaitsFor) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    std::string id;
    {
      auto first = co_await connected(server);
      json::object args{{"ms", 300}};
      const auto task = co_await first->call_tool_as_task("slow", std::move(args));
      EXPECT_FALSE(task.id.empty());
      EXPECT_EQ(task.status, mcp::task_status::working);
      CO_ASSERT_TRUE(task.ttl.has_value());
      EXPECT_EQ(task.poll_interval, 50ms);
      id = task.id;
      co_await first->close();  // the task outlives its connection
    }
    auto second = co_await connected(server);
    const auto now = co_await second->get_task(id);
    EXPECT_EQ(now.id, id);
    std::vector<std::string> seen;
    task_wait_options wait;
    wait.timeout = 5s;
    wait.on_status = [&](const task_info& t) { seen.push_back(std::string(mcp::to_string(t.status))); };
    const auto result = co_await second->wait_for_task(id, std::move(wait));
    EXPECT_EQ(result.text_content(), "slept 300 ms");
    CO_ASSERT_TRUE(!(seen.empty()));
    EXPECT_EQ(seen.back(), "completed");
    const auto after = co_await second->get_task(id);
    EXPECT_EQ(after.status, mcp::task_status::completed);
    CO_ASSERT_TRUE(after.result.has_value());
  });
}

TEST(TasksExtension, TheTaskAsksAndWaitForTaskAnswersThroughTheElicitationHandler) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto c = co_await connected(server);
    const auto task = co_await c->call_tool_as_task("ask");
    CO_ASSERT_TRUE(!(task.id.empty()));
    std::vector<std::string> statuses;
    task_wait_options wait;
    wait.timeout = 5s;
    wait.on_status = [&](const task_info& t) { statuses.push_back(std::string(mcp::to_string(t.status))); };
    const auto result = co_await c->wait_for_task(task.id, std::move(wait));
    EXPECT_EQ(result.text_content(), "color: teal");
    EXPECT_NE(std::ranges::find(statuses, "input_required"), statuses.end());
  });
}

TEST(TasksExtension, ACancelledTaskEndsCancelledAndItsWaitFails) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto c = co_await connected(server);
    json::object args{{"ms", 60000}};
    const auto task = co_await c->call_tool_as_task("slow", std::move(args));
    co_await c->cancel_task(task.id);
    const auto now = co_await c->get_task(task.id);
    EXPECT_EQ(now.status, mcp::task_status::cancelled);
    bool failed = false;
    try {
      const auto result = co_await c->wait_for_task(task.id);
      ADD_FAILURE() << result.text_content();
    } catch (const task_error& e) {
      failed = true;
      EXPECT_EQ(e.task().status, mcp::task_status::cancelled);
    }
    EXPECT_TRUE(failed);
    co_await c->cancel_task(task.id);  // an ack again: the extension's cancel is idempotent
  });
}

TEST(TasksExtension, AProtocolErrorFailsTheTaskWithThatError) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto c = co_await connected(server);
    const auto task = co_await c->call_tool_as_task("crash");
    std::optional<rpc_error> error;
    try {
      const auto result = co_await c->wait_for_task(task.id);
      ADD_FAILURE() << result.text_content();
    } catch (const task_error& e) {
      error = e.task().error;
    }
    CO_ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, errc::internal_error);
    EXPECT_EQ(error->message, "the worker crashed");
  });
}

TEST(TasksExtension, AClientDeclaringTheExtensionGetsItsCallsResultsAsIfAtOnce) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    client_options options;
    options.capabilities["extensions"] = json::object{{"io.modelcontextprotocol/tasks", json::object{}}};
    auto c = co_await connected(server, std::move(options));
    json::object args{{"ms", 100}};
    const auto result = co_await c->call_tool("slow", std::move(args));  // a task behind the scenes
    EXPECT_EQ(result.text_content(), "slept 100 ms");
    const auto asked = co_await c->call_tool("ask");
    EXPECT_EQ(asked.text_content(), "color: teal");
  });
}

TEST(TasksExtension, WithoutTheExtensionCallsRunDirectlyAndTasksMethodsAreRefused) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto c = co_await connected(server);
    json::object args{{"ms", 10}};
    const auto direct = co_await c->call_tool("slow", std::move(args));
    EXPECT_EQ(direct.text_content(), "slept 10 ms");
    std::optional<int> code;
    try {
      const auto result = co_await c->call_tool("only_task");
      ADD_FAILURE() << result.text_content();
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::missing_client_capability);
    code.reset();
    try {
      json::object made_up{{"taskId", "made-up"}};  // a raw request: no extension declared
      const auto found = co_await c->request("tasks/get", std::move(made_up));
      ADD_FAILURE() << json::serialize(found);
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::missing_client_capability);
    const auto at_once = co_await c->call_tool_as_task("never_task");
    EXPECT_TRUE(at_once.id.empty());  // answered directly
    CO_ASSERT_TRUE(at_once.result.has_value());
  });
}

TEST(TasksExtension, AListenStreamHearsTheTasksItAskedFor) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto c = co_await connected(server);
    std::vector<std::string> heard;  // the statuses notifications/tasks brought
    c->on_notification([&](const notification& n) {
      if (n.method == "notifications/tasks") heard.emplace_back(n.params.at("status").as_string());
    });
    json::object args{{"ms", 600}};
    const auto task = co_await c->call_tool_as_task("slow", std::move(args));
    json::object extension{{"extensions", {{"io.modelcontextprotocol/tasks", json::object{}}}}};
    json::object listen{{"notifications", {{"taskIds", json::array{json::value(task.id)}}}},
                        {"_meta", {{"io.modelcontextprotocol/clientCapabilities", std::move(extension)}}}};
    asio::cancellation_signal stop;
    auto stream = c->request("subscriptions/listen", std::move(listen));
    const auto ex = co_await asio::this_coro::executor;
    asio::co_spawn(ex, std::move(stream), asio::bind_cancellation_slot(stop.slot(), [](std::exception_ptr, json::object) {}));
    const std::function<bool()> ended = [&] { return std::ranges::find(heard, "completed") != heard.end(); };
    const bool done = co_await wait_until(ended, 5s);
    EXPECT_TRUE(done) << heard.size() << " notifications";
    stop.emit(asio::cancellation_type::terminal);
    co_await sleep_for(50ms);
  });
}

TEST(Tasks2025, ATaskAsksOnItsResultStreamAndIsListed) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto legacy = legacy_client();
    auto c = co_await connected(server, std::move(legacy));
    std::vector<std::string> notified;
    c->on_task_status([&](const task_info& t) { notified.push_back(std::string(mcp::to_string(t.status))); });
    task_call_options ask_for;
    ask_for.ttl = 60s;
    json::object no_arguments;
    const auto task = co_await c->call_tool_as_task("ask", std::move(no_arguments), std::move(ask_for));
    CO_ASSERT_TRUE(!(task.id.empty()));
    EXPECT_EQ(task.status, mcp::task_status::working);
    EXPECT_EQ(task.ttl, 60s);
    const auto page = co_await c->list_tasks_page("");
    CO_ASSERT_TRUE((page.tasks.size()) == (1u));
    EXPECT_EQ(page.tasks.front().id, task.id);
    EXPECT_FALSE(page.next_cursor);
    const auto all = co_await c->list_tasks();
    CO_ASSERT_TRUE((all.size()) == (1u));
    EXPECT_EQ(all.front().id, task.id);
    const auto result = co_await c->wait_for_task(task.id);  // tasks/result brings the elicitation
    EXPECT_EQ(result.text_content(), "color: teal");
    const auto after = co_await c->get_task(task.id);
    EXPECT_EQ(after.status, mcp::task_status::completed);
    co_await sleep_for(50ms);
    EXPECT_NE(std::ranges::find(notified, "input_required"), notified.end());
    EXPECT_NE(std::ranges::find(notified, "completed"), notified.end());
  });
}

TEST(Tasks2025, ATtlBeyondAnyIntegerIsCappedAtTheServersMaximum) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto legacy = legacy_client();
    auto c = co_await connected(server, std::move(legacy));
    const std::vector<std::pair<json::value, std::int64_t>> asked_and_given{
        {json::value(1e300), 86'400'000},
        {json::value(std::numeric_limits<std::uint64_t>::max()), 86'400'000},
        {json::value(-5), 1}};
    for (const auto& [asked, given] : asked_and_given) {
      json::object task{{"ttl", asked}};
      json::object params{{"name", "slow"}, {"arguments", json::object{{"ms", 10}}}, {"task", std::move(task)}};
      const auto result = co_await c->request("tools/call", std::move(params));
      EXPECT_EQ(result.at("task").at("ttl").to_number<std::int64_t>(), given) << json::serialize(asked);
    }
  });
}

TEST(Tasks2025, TaskSupportIsEnforcedAndACancelledTaskCannotBeCancelledAgain) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto legacy = legacy_client();
    auto c = co_await connected(server, std::move(legacy));
    const auto tools = co_await c->list_tools();
    const auto only = std::ranges::find(tools, "only_task", &tool_info::name);
    CO_ASSERT_TRUE((only) != (tools.end()));
    EXPECT_EQ(only->task_support, task_support::required);
    std::optional<int> code;
    try {
      const auto result = co_await c->call_tool("only_task");  // required, asked without a task
      ADD_FAILURE() << result.text_content();
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::method_not_found);
    json::object never{{"name", "never_task"}, {"arguments", json::object{}}, {"task", json::object{}}};
    code.reset();
    try {
      const auto result = co_await c->request("tools/call", std::move(never));
      ADD_FAILURE() << json::serialize(result);
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::method_not_found);

    json::object args{{"ms", 60000}};
    const auto task = co_await c->call_tool_as_task("slow", std::move(args));
    co_await c->cancel_task(task.id);
    const auto now = co_await c->get_task(task.id);
    EXPECT_EQ(now.status, mcp::task_status::cancelled);
    code.reset();
    try {
      co_await c->cancel_task(task.id);
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::invalid_params);
  });
}

TEST(Tasks2025, AnotherSessionDoesNotSeeTheTask) {
  run_tasks_test([](task_server& server) -> asio::awaitable<void> {
    auto legacy = legacy_client();
    auto owner = co_await connected(server, legacy);
    json::object args{{"ms", 50}};
    const auto task = co_await owner->call_tool_as_task("slow", std::move(args));
    auto stranger = co_await connected(server, std::move(legacy));
    std::optional<int> code;
    try {
      const auto found = co_await stranger->get_task(task.id);
      ADD_FAILURE() << mcp::to_string(found.status);
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::invalid_params);
    const auto listed = co_await stranger->list_tasks();
    EXPECT_TRUE(listed.empty());
    const auto result = co_await owner->wait_for_task(task.id);
    EXPECT_EQ(result.text_content(), "slept 50 ms");
  });
}

}  // namespace
}  // namespace mcp::test
