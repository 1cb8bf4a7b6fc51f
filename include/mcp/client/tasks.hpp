#pragma once
// Tasks as a client sees them (docs/tasks.md), in either era: the tasks of
// 2025-11-25 and the tasks extension of 2026-07-28 (SEP-2663). The calls
// are mcp::client's (call_tool_as_task, get_task, wait_for_task,
// cancel_task, list_tasks); these are the types they exchange.

#include <mcp/export.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp {

/// A task: where a tool call the server runs in the background stands.
struct MCP_API task_info {
  /// Empty when the server answered the call directly (no task was made:
  /// `result` holds the answer).
  std::string id;
  task_status status = task_status::working;  ///< where it stands (to_string gives its wire name)
  /// What the server says of the status (why cancelled, what failed...).
  std::optional<std::string> status_message;
  std::string created_at;       ///< ISO 8601, as the server wrote it
  std::string last_updated_at;  ///< ISO 8601
  std::optional<std::chrono::milliseconds> ttl;  ///< unset: unlimited
  /// How often the server suggests polling; wait_for_task keeps to 50 ms..5 s
  /// (1 s when unset).
  std::optional<std::chrono::milliseconds> poll_interval;
  /// What the task waits for (2026-07-28 input_required), by key.
  json::object input_requests;
  /// The tool's result once completed (2026-07-28 inlines it; a 2025-11-25
  /// task gets it from wait_for_task).
  std::optional<json::object> result;
  /// The JSON-RPC error of a failed task (2026-07-28).
  std::optional<rpc_error> error;

  /// Whether the task has ended: completed, failed or cancelled.
  bool terminal() const noexcept { return is_terminal(status); }
  /// Reads a Task object of either era: the extension's (2026-07-28: ttlMs,
  /// pollIntervalMs, what its status carries) unless it has the 2025-11-25
  /// `ttl`. @throws malformed_result without a taskId or a known status.
  static task_info from_json(const json::object& task);
};

/// How call_tool_as_task asks for a task.
struct MCP_API task_call_options {
  /// 2025-11-25: the ttl asked for (the server may shorten it). The
  /// extension's server decides the ttl itself.
  std::optional<std::chrono::milliseconds> ttl;
};

/// How wait_for_task waits.
struct MCP_API task_wait_options {
  /// How long to wait in all; then mcp::error(timed_out).
  std::chrono::milliseconds timeout{std::chrono::minutes(10)};
  /// Each status the client sees while it waits (2026-07-28: each poll that
  /// brings a new status or input requests; 2025-11-25: the last, once the
  /// result came).
  std::function<void(const task_info&)> on_status;
};

/// One page of list_tasks (2025-11-25).
struct MCP_API task_page {
  std::vector<task_info> tasks;            ///< the tasks of this page
  std::optional<std::string> next_cursor;  ///< for list_tasks' next page; unset on the last
};

/// A task that ended without a result: failed (its JSON-RPC error in
/// task().error when the server sent one) or cancelled. Code: that error's
/// code (rpc_category), sdk_errc::task_failed without one, or
/// sdk_errc::task_cancelled.
class MCP_API task_error : public error {
 public:
  /// Message and code from `task` (see above).
  explicit task_error(task_info task);
  /// The task as last seen: its status, status_message and error.
  const task_info& task() const noexcept { return task_; }

 private:
  task_info task_;
};

}  // namespace mcp
