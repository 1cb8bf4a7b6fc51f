// simulate-research-query runs only as a task (SEP-1686, 2025-11-25): our
// client's task API (call_tool_as_task, get_task, list_tasks,
// wait_for_task) creates the task, looks at it, and waits for its result,
// answering the elicitation the server sends meanwhile on the tasks/result
// stream.

#include "everything_fixture.hpp"

namespace mcp::test {
namespace {

class EverythingTasks : public everything_test {};

TEST_P(EverythingTasks, ResearchQueryRunsAsATaskThatAsksTheUser) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<json::object> asked;
    c.on_elicitation([&](json::object params) -> asio::awaitable<json::object> {
      asked.push_back(params);
      json::object answer{{"action", "accept"}, {"content", {{"interpretation", "snake"}}}};
      co_return answer;
    });
    co_await connect(c);

    // Called as a plain tool, it says what it needs.
    json::object topic{{"topic", "python"}};
    const auto plain = co_await c.call_tool("simulate-research-query", topic);
    EXPECT_TRUE(plain.is_error);
    EXPECT_NE(plain.text_content().find("requires task augmentation"), std::string::npos) << plain.text_content();

    // The typed task API: 2025-11-25 asks for the task with params.task.
    json::object arguments{{"topic", "python"}, {"ambiguous", true}};
    task_call_options ask_for;
    ask_for.ttl = 60s;
    const auto created = co_await c.call_tool_as_task("simulate-research-query", std::move(arguments),
                                                      std::move(ask_for));
    CO_ASSERT_TRUE(!created.id.empty());
    EXPECT_EQ(created.status, mcp::task_status::working);

    const auto status = co_await c.get_task(created.id);
    EXPECT_EQ(status.id, created.id);
    const auto listed = co_await c.list_tasks();
    EXPECT_TRUE(std::ranges::any_of(listed, [&](const task_info& t) { return t.id == created.id; }));

    // Waits on tasks/result; its stream carries the server's question,
    // which the elicitation handler answers.
    task_wait_options wait;
    wait.timeout = 20s;
    const auto result = co_await c.wait_for_task(created.id, std::move(wait));
    CO_ASSERT_TRUE(asked.size() == 1);
    EXPECT_NE(asked[0].at("message").as_string().find("python"), std::string::npos);
    const auto report = result.text_content();
    EXPECT_TRUE(report.starts_with("# Research Report: python (snake)")) << report;

    const auto done = co_await c.get_task(created.id);
    EXPECT_EQ(done.status, mcp::task_status::completed);
    co_await c.close();
  }, 30s);
}

// trigger-elicitation-request-async asks our client to run its
// elicitation as a task (2025-11-25, params.task): with host_tasks the client
// answers with a CreateTaskResult, runs its handler in the background and
// answers the server's tasks/get polls and tasks/result.
TEST_P(EverythingTasks, TheServerHasTheClientRunAnElicitationAsATask) {
  run_test([this]() -> asio::awaitable<void> {
    client_options options;
    options.host_tasks = true;
    mcp::client c(co_await asio::this_coro::executor, std::move(options));
    int asked = 0;
    c.on_elicitation([&](json::object) -> asio::awaitable<json::object> {
      ++asked;
      json::object answer{{"action", "accept"}, {"content", {{"name", "Ada"}, {"favoriteColor", "Green"}}}};
      co_return answer;
    });
    co_await connect(c);
    const auto tools = co_await c.list_tools();
    const bool offered = std::ranges::any_of(tools, [](const tool_info& t) { return t.name == "trigger-elicitation-request-async"; });
    CO_ASSERT_TRUE(offered);  // registered for a client that declares tasks.requests.elicitation.create
    json::object none;
    call_options patient;
    patient.timeout = 20s;
    const auto result = co_await c.call_tool("trigger-elicitation-request-async", std::move(none), std::move(patient));
    const auto text = result.text_content();
    EXPECT_NE(text.find("[COMPLETED] User provided the requested information!"), std::string::npos) << text;
    EXPECT_NE(text.find("- Name: Ada"), std::string::npos) << text;
    EXPECT_NE(text.find("Task created: "), std::string::npos) << text;
    EXPECT_EQ(asked, 1);
    co_await c.close();
  }, 40s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingTasks, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
