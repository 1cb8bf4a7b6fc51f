// Tasks on the client side (docs/tasks.md): asking for one, reading it,
// waiting for its end while answering what it asks, cancelling, listing.
// 2025-11-25 asks with `params.task` and waits on tasks/result (the task's
// requests come as ordinary server requests, answered by the handlers);
// 2026-07-28 declares the extension per request, polls tasks/get and
// answers inputRequests with tasks/update.

#include "client_impl.hpp"

#include "../protocol/wire_readers.hpp"

#include <mcp/error.hpp>
#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <set>

namespace mcp {

namespace {

constexpr std::string_view extension_id = "io.modelcontextprotocol/tasks";
// Bounds on the pollInterval a server suggests.
constexpr std::chrono::milliseconds min_poll{50};
constexpr std::chrono::milliseconds max_poll{5'000};

std::optional<std::chrono::milliseconds> milliseconds_of(const json::object& o, std::string_view a, std::string_view b) {
  for (const auto key : {a, b})
    if (const auto* v = o.if_contains(key); v && v->is_number())
      return std::chrono::milliseconds(static_cast<std::int64_t>(v->to_number<double>()));
  return std::nullopt;
}

std::string string_of(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::string describe(const task_info& task) {
  std::string what = "task " + task.id + " " + task.status;
  if (task.error) what += ": " + task.error->message;
  else if (task.status_message) what += ": " + *task.status_message;
  return what;
}

bool offers_tasks_for_tool_calls(const json::object& caps) {
  const auto* tasks = caps.if_contains("tasks");
  const auto* requests = tasks && tasks->is_object() ? tasks->get_object().if_contains("requests") : nullptr;
  const auto* tools = requests && requests->is_object() ? requests->get_object().if_contains("tools") : nullptr;
  return tools && tools->is_object() && tools->get_object().contains("call");
}

// The params of a request about task `id`: in the extension every such
// request declares the extension itself (a server refuses it otherwise).
json::object about_task(const std::string& id, bool modern) {
  json::object params{{"taskId", id}};
  if (modern) {
    json::object extension{{"extensions", json::object{{extension_id, json::object{}}}}};
    params["_meta"] = json::object{{meta_key::client_capabilities, std::move(extension)}};
  }
  return params;
}

task_info answered_directly(json::object result) {
  task_info done;
  done.status = "completed";
  done.result = std::move(result);
  return done;
}

}  // namespace

task_info task_info::from_json(const json::object& task) {
  task_info info;
  info.id = string_of(task, "taskId");
  info.status = string_of(task, "status");
  if (const auto* m = task.if_contains("statusMessage"); m && m->is_string()) info.status_message = std::string(m->get_string());
  info.created_at = string_of(task, "createdAt");
  info.last_updated_at = string_of(task, "lastUpdatedAt");
  info.ttl = milliseconds_of(task, "ttlMs", "ttl");
  info.poll_interval = milliseconds_of(task, "pollIntervalMs", "pollInterval");
  if (const auto* r = task.if_contains("inputRequests"); r && r->is_object()) info.input_requests = r->get_object();
  if (const auto* r = task.if_contains("result"); r && r->is_object()) info.result = r->get_object();
  if (const auto* e = task.if_contains("error"); e && e->is_object()) {
    const auto& error = e->get_object();
    const auto* code = error.if_contains("code");
    info.error = rpc_error{code && code->is_number() ? static_cast<int>(code->to_number<double>()) : errc::internal_error,
                           string_of(error, "message"), error.contains("data") ? error.at("data") : json::value()};
  }
  return info;
}

namespace {

boost::system::error_code code_of(const task_info& task) {
  if (task.status == "cancelled") return sdk_errc::task_cancelled;
  if (task.error) return {task.error->code, rpc_category()};
  return sdk_errc::task_failed;
}

}  // namespace

task_error::task_error(task_info task) : error(code_of(task), describe(task), whole_message{}), task_(std::move(task)) {}

asio::awaitable<task_info> client::call_tool_as_task(std::string name, json::object arguments) {
  task_call_options defaults;
  co_return co_await call_tool_as_task(std::move(name), std::move(arguments), std::move(defaults));
}

asio::awaitable<task_info> client::call_tool_as_task(std::string name, json::object arguments,
                                                     task_call_options options) {
  auto keep = impl_;
  const auto ready_by = std::chrono::steady_clock::now() + keep->options.request_timeout;
  co_await keep->ready_link(ready_by);
  json::object params{{"name", name}, {"arguments", std::move(arguments)}};
  const bool modern = keep->modern.has_value();
  if (modern) {
    json::object extension{{"extensions", json::object{{extension_id, json::object{}}}}};
    params["_meta"] = json::object{{meta_key::client_capabilities, std::move(extension)}};
  } else if (offers_tasks_for_tool_calls(keep->server->capabilities)) {
    json::object task;
    if (options.ttl) task["ttl"] = options.ttl->count();
    params["task"] = std::move(task);
  } else {
    // A server without tasks answers the call itself.
    auto given = std::move(params.at("arguments").as_object());
    auto result = co_await call_tool(std::move(name), std::move(given));
    co_return answered_directly(to_json_value(result).as_object());
  }
  call_options defaults;
  auto settings = keep->settings(defaults);
  auto reply = co_await keep->call(methods::tools_call, std::move(params), std::move(settings));
  if (const auto* type = reply.if_contains("resultType"); modern && type && *type == "task")
    co_return task_info::from_json(reply);
  if (const auto* task = reply.if_contains("task"); !modern && task && task->is_object())
    co_return task_info::from_json(task->get_object());
  co_return answered_directly(std::move(reply));
}

asio::awaitable<task_info> client::get_task(std::string id) {
  auto params = about_task(id, impl_->modern.has_value());
  auto reply = co_await request(methods::tasks_get, std::move(params));
  co_return task_info::from_json(reply);
}

asio::awaitable<void> client::cancel_task(std::string id) {
  auto params = about_task(id, impl_->modern.has_value());
  co_await request(methods::tasks_cancel, std::move(params));
}

asio::awaitable<task_page> client::list_tasks(std::string cursor) {
  json::object params;
  if (!cursor.empty()) params["cursor"] = std::move(cursor);
  auto reply = co_await request(methods::tasks_list, std::move(params));
  task_page page;
  if (const auto* tasks = reply.if_contains("tasks"); tasks && tasks->is_array())
    for (const auto& task : tasks->get_array())
      if (task.is_object()) page.tasks.push_back(task_info::from_json(task.get_object()));
  if (const auto* next = reply.if_contains("nextCursor"); next && next->is_string())
    page.next_cursor = std::string(next->get_string());
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
    auto task = task_info::from_json(first);
    co_return co_await poll_task(std::move(task), std::move(options), deadline);
  }
  // 2025-11-25: tasks/result blocks until the end; the task's requests come
  // meanwhile as server requests, which the handlers answer.
  auto wait = settings(defaults);
  wait.timeout = wait.max_total = options.timeout;
  auto result = co_await call(methods::tasks_result, std::move(params), std::move(wait));
  if (options.on_status) {
    json::object which{{"taskId", id}};
    auto get = settings(defaults);
    auto last = co_await call(methods::tasks_get, std::move(which), std::move(get));
    run_callback(options.on_status, "on_status", task_info::from_json(last));
  }
  co_return result;
}

asio::awaitable<json::object> client::impl::poll_task(task_info task, task_wait_options options,
                                                      std::chrono::steady_clock::time_point deadline) {
  auto self = shared_from_this();
  const call_options defaults;
  std::set<std::string> answered;  // input request keys, each answered once
  std::string last_status;
  for (;;) {
    if (task.status != last_status || !task.input_requests.empty()) {
      last_status = task.status;
      run_callback(options.on_status, "on_status", task);
    }
    if (task.status == "completed" && task.result) co_return std::move(*task.result);
    if (task.terminal()) throw task_error(std::move(task));
    if (task.status == "input_required") {
      json::object responses;
      for (const auto& [key, input] : task.input_requests) {
        if (answered.contains(key) || !input.is_object()) continue;
        mcp::request asked;
        asked.method = std::string(input.get_object().contains("method") ? input.at("method").as_string() : "");
        if (const auto* p = input.get_object().if_contains("params"); p && p->is_object()) asked.params = p->get_object();
        auto answer = co_await serve_server_request(asked);
        responses[key] = std::move(answer);
        answered.insert(std::string(key));
      }
      if (!responses.empty()) {
        auto update = about_task(task.id, true);
        update["inputResponses"] = std::move(responses);
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
    task = task_info::from_json(now);
  }
}

}  // namespace mcp
