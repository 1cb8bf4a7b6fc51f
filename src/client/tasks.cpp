// Tasks on the client side (docs/tasks.md): asking for one, reading it,
// waiting for its end while answering what it asks, cancelling, listing.
// 2025-11-25 asks with `params.task` and waits on tasks/result (the task's
// requests come as ordinary server requests, answered by the handlers);
// 2026-07-28 declares the extension per request, polls tasks/get and
// answers inputRequests with tasks/update.

#include "client_impl.hpp"
#include "list_all.hpp"
#include "task_reading.hpp"
#include "../detail/json_members.hpp"
#include "../protocol/modern_era.hpp"
#include "../protocol/task_rules.hpp"

#include "../protocol/wire_readers.hpp"

#include <mcp/error.hpp>
#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <set>

namespace mcp {

namespace {

// Bounds on the pollInterval a server suggests.
constexpr std::chrono::milliseconds min_poll{50};
constexpr std::chrono::milliseconds max_poll{5'000};

// A ttl: milliseconds, or null for unlimited.
std::optional<std::chrono::milliseconds> ttl_of(const json::value& ttl) {
  if (!ttl.is_number()) return std::nullopt;
  return std::chrono::milliseconds(static_cast<std::int64_t>(ttl.to_number<double>()));
}

std::optional<std::chrono::milliseconds> interval_of(std::optional<std::int64_t> ms) {
  if (!ms) return std::nullopt;
  return std::chrono::milliseconds(*ms);
}

// What the Task of either era has alike.
template <class Task>
task_info common_part_of(Task& given) {
  task_info info;
  info.id = std::move(given.task_id);
  info.status = given.status;
  info.status_message = std::move(given.status_message);
  info.created_at = std::move(given.created_at);
  info.last_updated_at = std::move(given.last_updated_at);
  return info;
}

std::string describe(const task_info& task) {
  std::string what = "task " + task.id + " " + std::string(to_string(task.status));
  if (task.error) what += ": " + task.error->message;
  else if (task.status_message) what += ": " + *task.status_message;
  return what;
}

bool offers_tasks_for_tool_calls(const json::object& caps) {
  const auto* tools = detail::object_at(caps, {"tasks", "requests", "tools"});
  return tools && tools->contains("call");
}

// `_meta` that declares the extension: in the extension every request about
// a task declares it itself (a server refuses it otherwise).
json::object declaring_the_extension() {
  return {{meta_key::client_capabilities, detail::tasks_extension_capabilities()}};
}

// The params of a request about task `id`.
json::object about_task(const std::string& id, bool modern) {
  auto params = detail::method_params(task_params{id});
  if (modern) params["_meta"] = declaring_the_extension();
  return params;
}

task_info answered_directly(json::object result) {
  task_info done;
  done.status = task_status::completed;
  done.result = std::move(result);
  return done;
}

}  // namespace

namespace detail {

task_info task_info_of(task given) {
  auto info = common_part_of(given);
  info.ttl = ttl_of(given.ttl);
  info.poll_interval = interval_of(given.poll_interval);
  return info;
}

task_info task_info_of(detailed_task given) {
  auto info = common_part_of(given);
  info.ttl = ttl_of(given.ttl_ms);
  info.poll_interval = interval_of(given.poll_interval_ms);
  info.input_requests = std::move(given.input_requests).value_or(json::object{});
  info.result = std::move(given.result);
  info.error = std::move(given.error);
  return info;
}

task_info read_task(const json::object& sent, bool modern) {
  if (modern) return task_info_of(detail::read_from_server<detailed_task>(sent, "task"));
  return task_info_of(detail::read_from_server<task>(sent, "task"));
}

}  // namespace detail

using detail::read_task;

task_info task_info::from_json(const json::object& task) {
  return read_task(task, !task.contains("ttl"));  // (the 2025-11-25 Task always has it, null or not)
}

namespace {

boost::system::error_code code_of(const task_info& task) {
  if (task.status == task_status::cancelled) return sdk_errc::task_cancelled;
  if (task.error) return {task.error->code, rpc_category()};
  return sdk_errc::task_failed;
}

}  // namespace

task_error::task_error(task_info task)
    : error(code_of(task), describe(task), whole_message{}), task_(std::move(task)) {}

asio::awaitable<task_info> client::call_tool_as_task(std::string name, json::object arguments) {
  task_call_options defaults;
  co_return co_await call_tool_as_task(std::move(name), std::move(arguments), std::move(defaults));
}

asio::awaitable<task_info> client::call_tool_as_task(std::string name, json::object arguments,
                                                     task_call_options options) {
  auto keep = impl_;
  const auto ready_by = std::chrono::steady_clock::now() + keep->options.request_timeout;
  co_await keep->ready_link(ready_by);
  const bool modern = keep->modern.has_value();
  if (!modern && !offers_tasks_for_tool_calls(keep->server->capabilities)) {
    // A server without tasks answers the call itself.
    auto result = co_await call_tool(std::move(name), std::move(arguments));
    co_return answered_directly(to_json_value(result).as_object());
  }
  auto params = detail::method_params(call_tool_params{std::move(name), std::move(arguments)});
  if (modern) {
    params["_meta"] = declaring_the_extension();
  } else {
    const std::optional<std::int64_t> ttl = options.ttl ? std::optional(options.ttl->count()) : std::nullopt;
    params["task"] = to_json_value(task_metadata{ttl});
  }
  call_options defaults;
  auto settings = keep->settings(defaults);
  auto reply = co_await keep->call(methods::tools_call, std::move(params), std::move(settings));
  // The server decides: the task (the extension: resultType "task"; 2025-11-25:
  // a CreateTaskResult), or the call's own result.
  if (modern && detail::result_type_of(reply) == "task")
    co_return read_task(reply, true);
  if (const auto* task = reply.if_contains("task"); !modern && task && task->is_object())
    co_return read_task(task->get_object(), false);
  co_return answered_directly(std::move(reply));
}

asio::awaitable<task_info> client::get_task(std::string id) {
  const bool modern = impl_->modern.has_value();
  auto params = about_task(id, modern);
  auto reply = co_await request(methods::tasks_get, std::move(params));
  co_return read_task(reply, modern);
}

asio::awaitable<void> client::cancel_task(std::string id) {
  auto params = about_task(id, impl_->modern.has_value());
  co_await request(methods::tasks_cancel, std::move(params));
}

asio::awaitable<std::vector<task_info>> client::list_tasks() {
  const auto read = [](const json::value& sent) {
    return detail::task_info_of(detail::read_from_server<task>(sent, "task"));
  };
  co_return co_await detail::list_all(*this, methods::tasks_list, "tasks", read);
}

asio::awaitable<task_page> client::list_tasks_page(std::string cursor) {
  paginated_params asked;
  if (!cursor.empty()) asked.cursor = std::move(cursor);
  auto params = detail::method_params(std::move(asked));
  auto reply = co_await request(methods::tasks_list, std::move(params));
  auto listed = detail::read_from_server<list_tasks_result>(reply, "task list");
  task_page page;
  for (auto& task : listed.tasks) page.tasks.push_back(detail::task_info_of(std::move(task)));
  page.next_cursor = std::move(listed.next_cursor);
  co_return page;
}

void client::on_task_status(std::function<void(const task_info&)> handler) {
  impl_->on_task_status = std::move(handler);
}

asio::awaitable<call_tool_result> client::wait_for_task(std::string id) {
  task_wait_options defaults;
  co_return co_await wait_for_task(std::move(id), std::move(defaults));
}

asio::awaitable<call_tool_result> client::wait_for_task(std::string id, task_wait_options options) {
  auto keep = impl_;
  auto result = co_await keep->task_result(std::move(id), std::move(options));
  co_return detail::read_call_tool_result(result);
}

asio::awaitable<json::object> client::impl::task_result(std::string id, task_wait_options options) {
  auto self = shared_from_this();
  const auto deadline = std::chrono::steady_clock::now() + options.timeout;
  auto params = about_task(id, modern.has_value());
  const call_options defaults;
  if (modern) {
    // (The extension routes by the task: the transport adds its Mcp-Name.)
    auto get = settings(defaults);
    auto first = co_await call(methods::tasks_get, params, std::move(get));
    auto task = read_task(first, true);
    co_return co_await poll_task(std::move(task), std::move(options), deadline);
  }
  // 2025-11-25: tasks/result blocks until the end; the task's requests come
  // meanwhile as server requests, which the handlers answer.
  auto wait = settings(defaults);
  wait.timeout = wait.max_total = options.timeout;
  auto result = co_await call(methods::tasks_result, std::move(params), std::move(wait));
  if (options.on_status) {
    auto which = about_task(id, false);
    auto get = settings(defaults);
    auto last = co_await call(methods::tasks_get, std::move(which), std::move(get));
    run_callback(options.on_status, "on_status", read_task(last, false));
  }
  co_return result;
}

asio::awaitable<json::object> client::impl::poll_task(task_info task, task_wait_options options,
                                                      std::chrono::steady_clock::time_point deadline) {
  auto self = shared_from_this();
  const call_options defaults;
  std::set<std::string> answered;  // input request keys, each answered once
  std::optional<task_status> last_status;
  for (;;) {
    if (task.status != last_status || !task.input_requests.empty()) {
      last_status = task.status;
      run_callback(options.on_status, "on_status", task);
    }
    if (task.status == task_status::completed && task.result) co_return std::move(*task.result);
    if (task.terminal()) throw task_error(std::move(task));
    if (task.status == task_status::input_required) {
      json::object responses;
      for (const auto& [key, input] : task.input_requests) {
        if (answered.contains(key)) continue;
        auto wanted = detail::read_from_server<input_request>(input, "input request");
        mcp::request asked;
        asked.method = std::move(wanted.method);
        asked.params = std::move(wanted.params);
        auto answer = co_await serve_server_request(asked);
        responses[key] = std::move(answer);
        answered.insert(std::string(key));
      }
      if (!responses.empty()) {
        auto update = detail::method_params(task_update_params{task.id, std::move(responses)});
        update["_meta"] = declaring_the_extension();
        auto once = settings(defaults);
        co_await call(methods::tasks_update, std::move(update), std::move(once));
      }
    }
    const auto pause = std::clamp(task.poll_interval.value_or(std::chrono::seconds(1)), min_poll, max_poll);
    if (std::chrono::steady_clock::now() + pause > deadline)
      throw mcp::error(asio::error::timed_out, "task " + task.id + " did not end in time");
    asio::steady_timer timer(executor, pause);
    co_await timer.async_wait(asio::use_awaitable);
    auto which = about_task(task.id, true);
    auto get = settings(defaults);
    auto now = co_await call(methods::tasks_get, std::move(which), std::move(get));
    task = read_task(now, true);
  }
}

}  // namespace mcp
