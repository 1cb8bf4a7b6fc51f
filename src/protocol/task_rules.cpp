#include "task_rules.hpp"

#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"

#include <algorithm>

namespace mcp::detail {

task_kind task_kind_of(protocol_version version) noexcept {
  const auto& d = dialect_of(version);
  if (d.era == protocol_era::modern) return task_kind::extension;
  return d.tasks ? task_kind::utility : task_kind::none;
}

bool declares_tasks_extension(const json::object& capabilities) noexcept {
  const auto* extensions = object_at(capabilities, {"extensions"});
  return extensions && extensions->contains(tasks_extension_id);
}

json::object tasks_extension_capabilities() {
  return {{"extensions", json::object{{tasks_extension_id, json::object{}}}}};
}

protocol_error missing_tasks_extension(std::string_view what) {
  return protocol_error(errc::missing_client_capability,
                        "Missing required client capability: " + std::string(what) + " needs the " +
                            std::string(tasks_extension_id) + " extension",
                        json::object{{"requiredCapabilities", tasks_extension_capabilities()}});
}

bool call_runs_as_task(task_kind kind, task_support support, bool declared, bool asked, std::string_view tool) {
  switch (kind) {
    case task_kind::none:
      return false;  // the tool runs as a plain call
    case task_kind::extension:
      if (declared) return support != task_support::forbidden;
      if (support == task_support::required) throw missing_tasks_extension("tool " + std::string(tool));
      return false;
    case task_kind::utility:
      if (asked && support == task_support::forbidden)
        throw protocol_error(errc::method_not_found, "Method not found: tool " + std::string(tool) +
                                                         " does not run as a task (execution.taskSupport)");
      if (!asked && support == task_support::required)
        throw protocol_error(errc::method_not_found, "Method not found: tool " + std::string(tool) +
                                                         " runs only as a task: call it with params.task");
      return asked;
  }
  return false;
}

void admit_tasks_method(std::string_view method, protocol_version version, bool declared) {
  const auto kind = task_kind_of(version);
  const bool extension = kind == task_kind::extension;
  const bool extension_only = method == methods::tasks_update;
  const bool utility_only = method == methods::tasks_list || method == methods::tasks_result;
  if (extension ? utility_only : (extension_only || kind == task_kind::none))
    throw protocol_error(errc::method_not_found, "Method not found: " + std::string(method) +
                                                     " is not part of protocol version " +
                                                     std::string(to_string(version)) +
                                                     (extension ? " with the tasks extension" : ""));
  if (extension && !declared) throw missing_tasks_extension(method);
}

const json::object* task_asked(const json::object& params) noexcept { return object_at(params, {"task"}); }

std::chrono::milliseconds task_ttl(task_kind kind, const json::object& params, std::chrono::milliseconds fallback,
                                   std::chrono::milliseconds most) {
  const auto* task = task_asked(params);
  const auto* asked = task ? task->if_contains("ttl") : nullptr;
  if (kind != task_kind::utility || !asked || !asked->is_number()) return fallback;
  // Clamped as a double before it becomes an integer: the client's number may
  // be beyond any integer type (1e300, a uint64 above INT64_MAX), and the
  // bounds are far inside a double's exact range. (Not read as the declared
  // task_metadata's integer for this reason.)
  const double clamped = std::clamp(asked->to_number<double>(), 1.0, static_cast<double>(most.count()));
  return std::chrono::milliseconds(static_cast<std::int64_t>(clamped));
}

std::string task_owner(task_kind kind, const std::string* principal, std::string_view session) {
  if (principal) return "principal:" + *principal;
  if (kind == task_kind::extension) return {};
  return "session:" + std::string(session);
}

bool may_see_task(std::string_view owner, std::string_view caller) noexcept {
  return owner.empty() || owner == caller;
}

bool is_tool_error(const json::object& result) noexcept { return flag_member(result, "isError"); }

json::object task_error_object(const rpc_error& error) { return to_json_value(error).as_object(); }

void check_cancel_of_ended(task_status status, task_kind kind) {
  if (kind == task_kind::extension) return;
  throw protocol_error(errc::invalid_params, "Cannot cancel task: it is already " + std::string(to_string(status)));
}

void task_not_found() { throw protocol_error(errc::invalid_params, "Failed to retrieve task: Task not found"); }

}  // namespace mcp::detail
