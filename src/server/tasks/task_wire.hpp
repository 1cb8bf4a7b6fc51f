#pragma once
// A task record on the wire of each era: the Task of the 2025-11-25 tasks
// utility (ttl, pollInterval; CreateTaskResult wraps it in `task`) and the
// Task of the 2026-07-28 tasks extension (SEP-2663: ttlMs, pollIntervalMs;
// CreateTaskResult is the task itself with resultType "task", and tasks/get
// inlines inputRequests, result or error). No I/O here.

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/messages.hpp>
#include <mcp/server/task_store.hpp>

#include <chrono>
#include <string>

namespace mcp::detail {

/// The record as the 2025-11-25 Task.
task legacy_task(const task_record& record);
/// The Task object: its status and times, in the shape of the task's era.
json::object task_json(const task_record& task);
/// The result of the request that created the task.
json::object created_task_json(const task_record& task);
/// tasks/get of the extension (DetailedTask) and notifications/tasks:
/// the Task with what its status carries.
json::object detailed_task_json(const task_record& task);

/// True for a record of the 2026-07-28 extension.
bool is_extension_task(const task_record& task) noexcept;

/// `_meta.io.modelcontextprotocol/related-task` (2025-11-25): what ties a
/// message to its task.
void tag_with_task(json::object& params, const std::string& task_id);

/// What tasks/result (2025-11-25) answers for a finished task: its result,
/// tagged with the task; a failed or cancelled one throws its protocol_error.
json::object finished_task_result(const task_record& task);

}  // namespace mcp::detail
