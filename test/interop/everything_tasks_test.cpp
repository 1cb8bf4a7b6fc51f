// simulate-research-query runs only as a task (SEP-1686, 2025-11-25). Our
// client has no typed calls for tasks, so the test drives them with
// request(): create the task, look at it, and wait for its result, answering
// the elicitation the server sends meanwhile on the tasks/result stream.

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

    json::object call{{"name", "simulate-research-query"},
                      {"arguments", {{"topic", "python"}, {"ambiguous", true}}},
                      {"task", {{"ttl", 60000}}}};
    const auto created = co_await c.request("tools/call", call);
    const auto task_id = std::string(created.at("task").at("taskId").as_string());
    EXPECT_EQ(created.at("task").at("status"), "working");

    json::object which{{"taskId", task_id}};
    const auto status = co_await c.request("tasks/get", which);
    EXPECT_EQ(status.at("taskId").as_string(), task_id);

    // Blocks until the task ends; its stream carries the server's question.
    const auto result = co_await c.request("tasks/result", which);
    CO_ASSERT_TRUE(asked.size() == 1);
    EXPECT_NE(asked[0].at("message").as_string().find("python"), std::string::npos);
    const auto report = std::string(result.at("content").at(0).at("text").as_string());
    EXPECT_TRUE(report.starts_with("# Research Report: python (snake)")) << report;

    const auto done = co_await c.request("tasks/get", which);
    EXPECT_EQ(done.at("status"), "completed");
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingTasks, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
