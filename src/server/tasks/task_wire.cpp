#include "task_wire.hpp"

#include "../../detail/utc_time.hpp"

namespace mcp::detail {

bool is_extension_task(const task_record& task) noexcept { return task.version != "2025-11-25"; }

json::object error_json(const rpc_error& error) {
  json::object out{{"code", error.code}, {"message", error.message}};
  if (!error.data.is_null()) out["data"] = error.data;
  return out;
}

void tag_with_task(json::object& params, const std::string& task_id) {
  auto* meta = params.if_contains("_meta");
  if (!meta || !meta->is_object()) meta = &(params["_meta"] = json::object{});
  meta->get_object()["io.modelcontextprotocol/related-task"] = json::object{{"taskId", task_id}};
}

json::object finished_task_result(const task_record& task) {
  if (task.status == task_status::cancelled)
    throw protocol_error(errc::internal_error, "Internal error: the task was cancelled");
  if (task.error) {
    const auto& e = *task.error;
    const auto* data = e.if_contains("data");
    throw protocol_error(static_cast<int>(e.at("code").to_number<std::int64_t>()),
                         std::string(e.at("message").as_string()), data ? *data : json::value(nullptr));
  }
  auto result = task.result.value_or(json::object{});
  tag_with_task(result, task.id);
  return result;
}

json::object task_json(const task_record& task) {
  const bool extension = is_extension_task(task);
  json::object out{{"taskId", task.id}, {"status", to_string(task.status)}};
  if (task.status_message) out["statusMessage"] = *task.status_message;
  out["createdAt"] = utc_time(task.created_at);
  out["lastUpdatedAt"] = utc_time(task.last_updated_at);
  out[extension ? "ttlMs" : "ttl"] = task.ttl ? json::value(task.ttl->count()) : json::value(nullptr);
  if (task.poll_interval) out[extension ? "pollIntervalMs" : "pollInterval"] = task.poll_interval->count();
  return out;
}

json::object create_task_result(const task_record& task) {
  if (!is_extension_task(task)) return {{"task", task_json(task)}};
  auto created = task_json(task);
  created["resultType"] = "task";
  return created;
}

json::object detailed_task_json(const task_record& task) {
  auto out = task_json(task);
  if (task.status == task_status::input_required) out["inputRequests"] = task.input_requests;
  if (task.status == task_status::completed && task.result) out["result"] = *task.result;
  if (task.status == task_status::failed && task.error) out["error"] = *task.error;
  return out;
}

}  // namespace mcp::detail
