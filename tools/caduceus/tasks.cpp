#include "tasks.hpp"

#include "failure.hpp"
#include "json_output.hpp"
#include "text_output.hpp"

#include <mcp/client/tasks.hpp>

#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <iostream>

namespace caduceus {

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

void print_text(const std::string& text) { std::cout << text << std::flush; }

json::object task_json(const mcp::task_info& task) {
  json::object o{{"taskId", task.id}, {"status", mcp::to_string(task.status)}};
  if (task.status_message) o["statusMessage"] = *task.status_message;
  if (!task.created_at.empty()) o["createdAt"] = task.created_at;
  if (!task.last_updated_at.empty()) o["lastUpdatedAt"] = task.last_updated_at;
  if (task.ttl) o["ttl"] = task.ttl->count();
  if (task.poll_interval) o["pollInterval"] = task.poll_interval->count();
  if (!task.input_requests.empty()) o["inputRequests"] = task.input_requests;
  if (task.result) o["result"] = *task.result;
  if (task.error) o["error"] = json::object{{"code", task.error->code}, {"message", task.error->message}};
  return o;
}

std::string seconds_text(std::chrono::milliseconds ms) {
  const auto s = ms.count() / 1000.0;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, s == static_cast<double>(static_cast<long long>(s)) ? "%.0f s" : "%.1f s", s);
  return buffer;
}

// `ID  status  updated  message`, one line.
std::string task_line(const mcp::task_info& task) {
  std::string line = task.id + "  " + std::string(mcp::to_string(task.status));
  if (!task.last_updated_at.empty()) line += "  " + task.last_updated_at;
  if (task.status_message) line += "  " + *task.status_message;
  return line + "\n";
}

std::string task_text(const mcp::task_info& task) {
  std::string text = "task        " + task.id + "\nstatus      " + std::string(mcp::to_string(task.status)) + "\n";
  if (task.status_message) text += "message     " + *task.status_message + "\n";
  if (!task.created_at.empty()) text += "created     " + task.created_at + "\n";
  if (!task.last_updated_at.empty()) text += "updated     " + task.last_updated_at + "\n";
  if (task.ttl) text += "ttl         " + seconds_text(*task.ttl) + "\n";
  if (task.poll_interval) text += "poll every  " + seconds_text(*task.poll_interval) + "\n";
  if (!task.input_requests.empty()) text += "waits for   " + std::to_string(task.input_requests.size()) + " answer(s)\n";
  if (task.error) text += "error       " + task.error->message + " (error " + std::to_string(task.error->code) + ")\n";
  return text;
}

// A CallToolResult object that came inlined in a task.
mcp::call_tool_result read_result(const json::object& o) {
  mcp::call_tool_result result;
  if (const auto* content = o.if_contains("content"); content && content->is_array()) result.content = content->get_array();
  if (const auto* structured = o.if_contains("structuredContent")) result.structured_content = *structured;
  if (const auto* error = o.if_contains("isError"); error && error->is_bool()) result.is_error = error->get_bool();
  return result;
}

int print_result(const invocation& inv, const mcp::call_tool_result& result) {
  if (inv.json)
    print_json(result.to_json());
  else
    print_text(tool_result_text(result));
  return result.is_error ? exit_failure : exit_ok;
}

// The bar while a task runs: its id, status, message and the time waited,
// redrawn each second (a 2025-11-25 task says nothing until it ends).
struct task_bar {
  task_bar(progress_bar& b, std::string task) : bar(b), id(std::move(task)) {}
  progress_bar& bar;
  std::string id;
  std::string status = "working";
  std::string message;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

  void draw() {
    const auto waited = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - start);
    std::string line = "task " + id + "  " + status + "  " + std::to_string(waited.count()) + " s";
    if (!message.empty()) line += "  " + message;
    bar.status(line);
  }
  void take(const mcp::task_info& task) {
    if (!task.id.empty() && task.id != id) return;
    status = mcp::to_string(task.status);
    message = task.status_message.value_or("");
    draw();
  }
};

asio::awaitable<void> tick(task_bar& shown) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  for (;;) {
    shown.draw();
    timer.expires_after(1s);
    co_await timer.async_wait(asio::use_awaitable);
  }
}

// Waits for the task, never throwing (so that `||` below ends with it):
// its failure comes back in `failure`.
asio::awaitable<bool> wait_quietly(mcp::client& c, std::string id, task_bar& shown,
                                   std::optional<mcp::call_tool_result>& result, std::exception_ptr& failure) {
  try {
    mcp::task_wait_options options;
    options.on_status = [&shown](const mcp::task_info& task) { shown.take(task); };
    result = co_await c.wait_for_task(std::move(id), std::move(options));
  } catch (...) {
    failure = std::current_exception();
  }
  co_return true;
}

asio::awaitable<int> wait(mcp::client& c, const invocation& inv, progress_bar& bar, std::string id) {
  using namespace asio::experimental::awaitable_operators;
  task_bar shown(bar, id);
  c.on_task_status([&shown](const mcp::task_info& task) { shown.take(task); });  // 2025-11-25 notifications
  std::optional<mcp::call_tool_result> result;
  std::exception_ptr failure;
  auto waiting = wait_quietly(c, id, shown, result, failure);
  auto ticking = tick(shown);
  co_await (std::move(waiting) || std::move(ticking));
  c.on_task_status(nullptr);
  bar.clear();
  if (failure) {
    try {
      std::rethrow_exception(failure);
    } catch (const mcp::task_error& e) {
      const auto& task = e.task();
      std::string why = "task " + task.id + " " + std::string(mcp::to_string(task.status));
      if (task.error) why += ": " + task.error->message + " (error " + std::to_string(task.error->code) + ")";
      else if (task.status_message) why += ": " + *task.status_message;
      throw std::runtime_error(why);
    }
  }
  co_return print_result(inv, *result);
}

asio::awaitable<mcp::task_info> start(mcp::client& c, const invocation& inv) {
  std::string name = inv.operands.at(1);
  json::object arguments = inv.tool_arguments;
  co_return co_await c.call_tool_as_task(std::move(name), std::move(arguments));
}

}  // namespace

asio::awaitable<int> run_tasks(mcp::client& c, const invocation& inv, progress_bar& bar) {
  const auto& sub = inv.operands.at(0);
  if (sub == "start" || sub == "call") {
    auto task = co_await start(c, inv);
    if (task.id.empty()) {  // the server answered at once: there is no task
      mcp::call_tool_result result;
      if (task.result) result = read_result(*task.result);
      if (sub == "start" && !inv.json) std::cerr << "(no task: the server answered at once)" << std::endl;
      co_return print_result(inv, result);
    }
    if (sub == "call") co_return co_await wait(c, inv, bar, task.id);
    if (inv.json)
      print_json(task_json(task));
    else
      print_text(task.id + "\n");
    co_return exit_ok;
  }
  if (sub == "list") {
    const auto all = co_await c.list_tasks();
    if (inv.json) {
      json::array tasks;
      for (const auto& task : all) tasks.push_back(task_json(task));
      print_json(json::object{{"tasks", std::move(tasks)}});
    } else {
      for (const auto& task : all) print_text(task_line(task));
    }
    co_return exit_ok;
  }
  std::string id = inv.operands.at(1);
  if (sub == "get") {
    const auto task = co_await c.get_task(std::move(id));
    if (inv.json)
      print_json(task_json(task));
    else
      print_text(task_text(task));
    co_return exit_ok;
  }
  if (sub == "cancel") {
    co_await c.cancel_task(std::move(id));
    if (!inv.json) print_text("asked the server to cancel task " + inv.operands.at(1) + "\n");
    else print_json(json::object{{"taskId", inv.operands.at(1)}, {"cancelRequested", true}});
    co_return exit_ok;
  }
  if (sub == "wait") co_return co_await wait(c, inv, bar, std::move(id));
  throw usage_error("unknown tasks command '" + sub + "'");
}

}  // namespace caduceus
