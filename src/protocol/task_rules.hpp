#pragma once
// The rules of tasks, beside those of the other request kinds: which kind of
// tasks a revision speaks, when a tools/call becomes a task, which tasks/*
// methods each kind answers, how long a task is kept, and how its status
// moves. No I/O here: task_manager (server/tasks) runs tasks and stores them
// by these rules, and the tests hold the rules to the spec in tables.
//
// Two kinds share one set of statuses (task_status):
// - the tasks utility of 2025-11-25: the client asks with `params.task`
//   (a ttl), lists its tasks, waits on tasks/result; a tool error fails the
//   task;
// - the tasks extension of 2026-07-28 (SEP-2663): declared by the client per
//   request, the server decides; input waits in `inputRequests` until
//   tasks/update; a tool error completes the task; tasks/cancel always acks.
//
// Statuses move working <-> input_required, then to one of completed,
// failed or cancelled, which a task never leaves. The status changes take
// any `Task` with the members of a task_record (server/task_store.hpp):
// status, status_message, input_requests, result and error.

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

/// The extension's identifier, under `capabilities.extensions`.
inline constexpr std::string_view tasks_extension_id = "io.modelcontextprotocol/tasks";

/// Which tasks a revision speaks.
enum class task_kind {
  none,       ///< before 2025-11-25: a tool runs as a plain call
  utility,    ///< 2025-11-25's tasks utility
  extension,  ///< 2026-07-28's tasks extension
};
task_kind task_kind_of(protocol_version version) noexcept;

/// Whether `capabilities` (a client's or a server's) declare the extension.
bool declares_tasks_extension(const json::object& capabilities) noexcept;
/// Capabilities that declare the extension and nothing else.
json::object tasks_extension_capabilities();
/// -32021 with `requiredCapabilities` naming the extension: `what` needs it.
protocol_error missing_tasks_extension(std::string_view what);

/// Whether a tools/call of `tool`, which allows tasks as `support` says,
/// runs as a task. `declared`: the client declared the extension (2026-07-28);
/// `asked`: the call has `params.task` (2025-11-25). Throws the refusals:
/// -32601 for a 2025-11-25 call that asks for a task the tool forbids, or
/// does not ask for one it requires; -32021 for a 2026-07-28 call of a
/// required tool from a client without the extension.
bool call_runs_as_task(task_kind kind, task_support support, bool declared, bool asked, std::string_view tool);

/// Refuses a tasks/* method the request's kind does not answer: -32601 for
/// one its revision lacks (tasks/update before 2026-07-28; tasks/list and
/// tasks/result in it; all of them before 2025-11-25), -32021 for a
/// 2026-07-28 request that does not declare the extension.
void admit_tasks_method(std::string_view method, protocol_version version, bool declared);

/// The `task` member of a request's params, when it is an object: in
/// 2025-11-25, asking for a task is its presence. Null otherwise.
const json::object* task_asked(const json::object& params) noexcept;

/// How long a new task is kept: 2025-11-25 takes the `task.ttl` of the
/// request's `params` (any JSON number, clamped to [1 ms, `most`]), else
/// `fallback`; the extension always `fallback` (the server decides).
std::chrono::milliseconds task_ttl(task_kind kind, const json::object& params, std::chrono::milliseconds fallback,
                                   std::chrono::milliseconds most);

/// Who may see a task: `principal` (an OAuth identity) when there is one,
/// else the creating `session` in 2025-11-25, and nobody in particular for
/// an extension task of an anonymous client (its id is its only key).
std::string task_owner(task_kind kind, const std::string* principal, std::string_view session);
/// Whether a caller who is `caller` (task_owner of its request) may see a
/// task owned by `owner`.
bool may_see_task(std::string_view owner, std::string_view caller) noexcept;

/// Whether a tool's result says it failed (`isError`): a tool error.
bool is_tool_error(const json::object& result) noexcept;
/// The JSON-RPC error object a failed task keeps.
json::object task_error_object(const rpc_error& error);

// Status changes. Each leaves a terminal task as it is and says whether it
// changed anything.

/// The handler asks for input (working -> input_required).
template <class Task>
bool await_input(Task& task) {
  if (is_terminal(task.status)) return false;
  task.status = task_status::input_required;
  return true;
}

/// No input is awaited any longer (input_required -> working).
template <class Task>
bool resume(Task& task) {
  if (task.status != task_status::input_required) return false;
  task.status = task_status::working;
  return true;
}

/// The handler returned `result`: completed, or failed for a tool error in
/// 2025-11-25 (the spec says so for tool calls; the extension completes it).
/// The result is kept either way: tasks/result gives it as it was.
template <class Task>
bool complete(Task& task, json::object result, task_kind kind) {
  if (is_terminal(task.status)) return false;
  const bool tool_error = is_tool_error(result);
  task.status = tool_error && kind != task_kind::extension ? task_status::failed : task_status::completed;
  if (tool_error) task.status_message = "The tool reported an error";
  task.result = std::move(result);
  task.input_requests = {};
  return true;
}

/// The handler failed with `error` (or the node that ran it died): failed.
template <class Task>
bool fail(Task& task, const rpc_error& error) {
  if (is_terminal(task.status)) return false;
  task.status = task_status::failed;
  task.status_message = error.message;
  task.error = task_error_object(error);
  task.input_requests = {};
  return true;
}

/// tasks/cancel: cancelled, `why` as its status message.
template <class Task>
bool cancel(Task& task, std::string why) {
  if (is_terminal(task.status)) return false;
  task.status = task_status::cancelled;
  task.status_message = std::move(why);
  task.input_requests = {};
  return true;
}

/// tasks/cancel of a task that had already ended (`status`): 2025-11-25
/// refuses it with -32602 (thrown); the extension acks it whatever became
/// of the task (returns).
void check_cancel_of_ended(task_status status, task_kind kind);

/// tasks/get, tasks/update, tasks/cancel and tasks/result name an unknown
/// task, or one the caller may not see, alike: -32602.
[[noreturn]] void task_not_found();

}  // namespace mcp::detail
