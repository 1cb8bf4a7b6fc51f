#pragma once
// A task record on the wire of each era: the Task of the 2025-11-25 tasks
// utility (ttl, pollInterval; CreateTaskResult wraps it in `task`) and the
// Task of the 2026-07-28 tasks extension (SEP-2663: ttlMs, pollIntervalMs;
// CreateTaskResult is the task itself with resultType "task", and tasks/get
// inlines inputRequests, result or error). No I/O here.

#include <mcp/server/task_store.hpp>

#include <chrono>
#include <string>

namespace mcp::detail {

/// RFC 3339 / ISO 8601 in UTC with milliseconds: 2026-11-27T10:30:00.000Z.
std::string iso8601(std::chrono::system_clock::time_point when);

/// The Task object: its status and times, in the shape of the task's era.
json::object task_json(const task_record& task);
/// The result of the request that created the task.
json::object create_task_result(const task_record& task);
/// tasks/get of the extension (DetailedTask) and notifications/tasks:
/// the Task with what its status carries.
json::object detailed_task_json(const task_record& task);

/// True for a record of the 2026-07-28 extension.
bool is_extension_task(const task_record& task) noexcept;

}  // namespace mcp::detail
