#include "task_wire.hpp"

#include <mcp/protocol/wire.hpp>

#include "../../detail/utc_time.hpp"
#include "../../protocol/modern_era.hpp"

namespace mcp::detail {

task legacy_task(const task_record& record) {
  return {record.id,
          record.status,
          record.status_message,
          utc_time(record.created_at),
          utc_time(record.last_updated_at),
          record.ttl ? json::value(record.ttl->count()) : json::value(nullptr),
          record.poll_interval ? std::optional(record.poll_interval->count()) : std::nullopt};
}

namespace {

// A record as the extension's Task, without what its status carries.
detailed_task extension_task(const task_record& record) {
  detailed_task out;
  out.task_id = record.id;
  out.status = record.status;
  out.status_message = record.status_message;
  out.created_at = utc_time(record.created_at);
  out.last_updated_at = utc_time(record.last_updated_at);
  out.ttl_ms = record.ttl ? json::value(record.ttl->count()) : json::value(nullptr);
  if (record.poll_interval) out.poll_interval_ms = record.poll_interval->count();
  return out;
}

}  // namespace

bool is_extension_task(const task_record& task) noexcept { return task.version != "2025-11-25"; }

void tag_with_task(json::object& params, const std::string& task_id) {
  detail::meta_of(params)["io.modelcontextprotocol/related-task"] = json::object{{"taskId", task_id}};
}

json::object finished_task_result(const task_record& task) {
  if (task.status == task_status::cancelled)
    throw protocol_error(errc::internal_error, "Internal error: the task was cancelled");
  if (task.error) {
    auto error = from_json<rpc_error>(*task.error);  // (the store keeps what error_json wrote)
    throw protocol_error(error.code, std::move(error.message), std::move(error.data));
  }
  auto result = task.result.value_or(json::object{});
  tag_with_task(result, task.id);
  return result;
}

json::object task_json(const task_record& task) {
  if (!is_extension_task(task)) return to_json_value(legacy_task(task)).as_object();
  return to_json_value(extension_task(task)).as_object();
}

json::object created_task_json(const task_record& task) {
  if (!is_extension_task(task)) return to_json_value(create_task_result{legacy_task(task)}).as_object();
  auto created = task_json(task);
  created["resultType"] = "task";  // (the envelope's member: the result is the task, not the call's)
  return created;
}

json::object detailed_task_json(const task_record& task) {
  auto out = extension_task(task);
  if (task.status == task_status::input_required) out.input_requests = task.input_requests;
  if (task.status == task_status::completed && task.result) out.result = *task.result;
  if (task.status == task_status::failed && task.error) out.error = from_json<rpc_error>(*task.error);
  return to_json_value(std::move(out)).as_object();
}

}  // namespace mcp::detail
