#pragma once
// Tasks of the high-level server (docs/tasks.md): a tools/call the server
// runs in the background, in both eras on one endpoint.
//
// - 2025-11-25 (basic/utilities/tasks): the client asks for a task with
//   `params.task`; the answer is a CreateTaskResult at once, and the client
//   polls tasks/get, waits on tasks/result, lists and cancels. A handler's
//   elicitation or sampling goes to the client as a request tagged with the
//   task, on the stream of a waiting tasks/result when there is one.
// - 2026-07-28, the tasks extension (SEP-2663): the client declares
//   `io.modelcontextprotocol/tasks` in the request's capabilities and the
//   server decides. The handler starts as an ordinary request (it may still
//   ask for input through InputRequiredResult rounds); one that has not
//   finished within the immediate window becomes a task, answered with a
//   CreateTaskResult. From then on its input requests wait in the task's
//   inputRequests until tasks/update answers them.
//
// The handler itself does not change: it gets a request_context whose way
// out (notifications, input) the running task takes over.

#include <mcp/server/context.hpp>
#include <mcp/server/message_bus.hpp>
#include <mcp/server/task_store.hpp>

#include <functional>
#include <memory>
#include <string_view>

namespace mcp {
struct task_options;
}

namespace mcp::detail {

/// A tools/call after its checks: the handler on the validated arguments,
/// and its result shaped (a tool error for what the handler threw).
using task_body =
    std::function<asio::awaitable<json::object>(const json::object& arguments, request_context& ctx)>;

struct task_state;

class task_manager {
 public:
  explicit task_manager(const task_options& options);
  ~task_manager();
  task_manager(const task_manager&) = delete;
  task_manager& operator=(const task_manager&) = delete;

  /// Whether a tools/call of a tool with `support` runs as a task. Throws
  /// the refusals: -32601 for a 2025-11-25 call that asks for a task the
  /// tool forbids or does not ask for one it requires, -32021 for a
  /// 2026-07-28 call of a required tool from a client without the extension.
  bool runs_as_task(task_support support, std::string_view tool, request_context& ctx) const;
  /// Runs the call: as a task (its CreateTaskResult), or, in the 2026-07-28
  /// era, directly when it finishes within the immediate window or asks for
  /// input before it has to wait.
  asio::awaitable<json::object> call(request_context& ctx, task_body body);

  /// tasks/get, tasks/update, tasks/cancel, tasks/list and tasks/result.
  static bool is_tasks_method(std::string_view method) noexcept;
  /// Serves one, with the era's rules (-32601 for a method the era lacks,
  /// -32021 without the extension, -32602 for an unknown task).
  asio::awaitable<json::object> handle(const request& req, request_context& ctx);

  /// The capabilities tasks add: `tasks` (2025-11-25) and the extension.
  void add_capabilities(json::object& capabilities) const;

  /// Called with an extension task's record each time this process changes
  /// it (status, input requests, end): the server's notifications/tasks.
  /// Set before serving.
  void on_change(std::function<void(const task_record&)> hook);
  /// Whether `s` may see `task`: its owner's (the principal, or the
  /// 2025-11-25 session), or anyone's with the id when it has no owner.
  static bool visible_to(const task_record& task, const session& s);

  /// Where tasks created from now on are recorded: the store of the
  /// servers of a cluster; null: the options' (or this process's memory)
  /// again. Ignored when task_options::store names a store.
  void use_store(std::shared_ptr<task_store> store);
  /// In a cluster: tasks/cancel and tasks/update of a task that another
  /// node runs go to it on `bus` (channel "tasks": "cancel <id>", "update
  /// <id>\n<inputResponses>"), and this node acts on the ones for the
  /// tasks it runs. Throws store_unavailable when the bus is unreachable.
  asio::awaitable<void> join_cluster(std::shared_ptr<message_bus> bus);
  void leave_cluster();

 private:
  std::shared_ptr<task_state> state_;
};

}  // namespace mcp::detail
