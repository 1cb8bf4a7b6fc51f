// The fixtures of the conformance suite's tasks scenarios (0.2.0-alpha,
// `tasks-*`, the tasks extension SEP-2663), on the tasks of mcp::server:
// each handler is an ordinary tool handler; its tool_info::task_support lets
// the server run it as a task, in the 2026-07-28 extension and in the tasks
// of 2025-11-25 alike.
//
// A handler becomes a task when it first has to wait (task_options::
// immediate_window is 0): those that ask the client for input while they
// are tasks wait a moment first, as real work would, so that their
// questions go to the task's inputRequests rather than to an
// InputRequiredResult of the call (which is what test_tool_with_task wants:
// the question first, then the task).

#include "conformance_fixtures.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

namespace {

namespace json = boost::json;
namespace asio = boost::asio;
using mcp::call_tool_result;
using mcp::request_context;

asio::awaitable<void> work_for(std::chrono::milliseconds how_long) {
  const auto executor = co_await asio::this_coro::executor;
  asio::steady_timer timer(executor, how_long);
  co_await timer.async_wait(asio::use_awaitable);
}

double number_or(const json::object& args, std::string_view key, double fallback) {
  const auto* v = args.if_contains(key);
  return v && v->is_number() ? v->to_number<double>() : fallback;
}

std::string string_or(const json::object& args, std::string_view key, std::string fallback) {
  const auto* v = args.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::move(fallback);
}

json::object confirmation_form() {
  return json::parse(R"({"type":"object","properties":{"confirm":{"type":"boolean","title":"Confirm"}},)"
                     R"("required":["confirm"]})")
      .as_object();
}

bool confirmed(const json::object& answer) {
  const auto* content = answer.if_contains("content");
  if (answer.at("action") != "accept" || !content || !content->is_object()) return false;
  const auto* confirm = content->get_object().if_contains("confirm");
  return confirm && confirm->is_bool() && confirm->get_bool();
}

asio::awaitable<call_tool_result> greet(const json::object& args, request_context&) {
  co_return call_tool_result::text("Hello, " + string_or(args, "name", "World") + "!");
}

asio::awaitable<call_tool_result> slow_compute(const json::object& args, request_context&) {
  const auto seconds = number_or(args, "seconds", 1);
  co_await work_for(std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000)));
  co_return call_tool_result::text("Computed " + string_or(args, "label", "result") + " in " +
                                   std::to_string(seconds) + " s");
}

asio::awaitable<call_tool_result> failing_job(const json::object&, request_context&) {
  co_await work_for(std::chrono::seconds(1));
  co_return call_tool_result::error("The job failed: the input could not be processed");
}

asio::awaitable<call_tool_result> protocol_error_job(const json::object&, request_context&) {
  co_await work_for(std::chrono::milliseconds(100));
  throw mcp::protocol_error(mcp::errc::internal_error, "The job's worker crashed");
}

asio::awaitable<call_tool_result> confirm_delete(const json::object& args, request_context& ctx) {
  const auto file = string_or(args, "filename", "the file");
  co_await work_for(std::chrono::milliseconds(50));
  const auto answer = co_await ctx.elicit("Delete " + file + "?", confirmation_form());
  co_return call_tool_result::text(confirmed(answer) ? "Deleted " + file : "Kept " + file);
}

asio::awaitable<call_tool_result> multi_input(const json::object&, request_context& ctx) {
  co_await work_for(std::chrono::milliseconds(50));
  json::object both = confirmation_form();
  both["properties"].as_object()["name"] = {{"type", "string"}};
  mcp::input_requests questions{{"first", mcp::input_request::elicitation("First input", both)},
                                {"second", mcp::input_request::elicitation("Second input", both)}};
  const auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("Both inputs received (" + std::to_string(answers.size()) + ")");
}

asio::awaitable<call_tool_result> tool_with_task(const json::object&, request_context& ctx) {
  json::object form{{"type", "object"},
                    {"properties", {{"name", {{"type", "string"}}}}},
                    {"required", json::array{"name"}}};
  mcp::input_requests question{{"user_name", mcp::input_request::elicitation("What is your name?", form)}};
  const auto answers = co_await ctx.ask(std::move(question));  // an InputRequiredResult, in round 1
  const auto& answer = answers.at("user_name");
  const auto* content = answer.if_contains("content");
  std::string name = "(declined)";
  if (content && content->is_object())
    if (const auto* given = content->get_object().if_contains("name"); given && given->is_string())
      name = std::string(given->get_string());
  co_await work_for(std::chrono::milliseconds(200));  // the task's own work
  co_return call_tool_result::text("Hello, " + name + "! The task is done.");
}

void add(mcp::server& server, std::string name, std::string description, std::string_view schema,
         mcp::task_support support, mcp::tool_handler handler) {
  mcp::tool_info info{std::move(name), std::move(description)};
  info.input_schema = json::parse(schema).as_object();
  info.task_support = support;
  server.add_tool(std::move(info), std::move(handler));
}

constexpr std::string_view no_arguments = R"({"type":"object","properties":{}})";

}  // namespace

void add_task_conformance_fixtures(mcp::server& server) {
  using mcp::task_support;
  add(server, "greet", "Greets by name, at once (never a task)",
      R"({"type":"object","properties":{"name":{"type":"string"}}})", task_support::forbidden, greet);
  add(server, "slow_compute", "Works for the given seconds, as a task when the client can take one",
      R"({"type":"object","properties":{"seconds":{"type":"number","minimum":0},"label":{"type":"string"}}})",
      task_support::optional, slow_compute);
  add(server, "failing_job", "Runs only as a task, and reports a tool error after a second", no_arguments,
      task_support::required, failing_job);
  add(server, "protocol_error_job", "Fails with a JSON-RPC error", no_arguments, task_support::optional,
      protocol_error_job);
  add(server, "confirm_delete", "Asks for a confirmation before deleting a file",
      R"({"type":"object","properties":{"filename":{"type":"string"}}})", task_support::optional, confirm_delete);
  add(server, "multi_input", "Asks two questions at once", no_arguments, task_support::optional, multi_input);
  add(server, "test_tool_with_task", "Asks for a name, then works as a task", no_arguments,
      task_support::required, tool_with_task);
}
