#include "modern_era.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"
#include "invalid_params.hpp"
#include "read_params.hpp"
#include "task_rules.hpp"

#include <algorithm>
#include <array>

namespace mcp::detail {

BOOST_DESCRIBE_STRUCT(input_required_members, (), (input_requests, request_state))
[[maybe_unused]] auto mcp_fields(type_t<input_required_members>) {
  return std::tuple{field(&input_required_members::input_requests).key("inputRequests"),
                    field(&input_required_members::request_state).key("requestState")};
}

namespace {

constexpr std::array<std::string_view, 5> removed_methods{methods::initialize, methods::ping,
                                                          methods::logging_set_level, methods::resources_subscribe,
                                                          methods::resources_unsubscribe};

// Results that carry caching hints (server/utilities/caching).
constexpr std::array<std::string_view, 6> cacheable_methods{methods::server_discover, methods::tools_list,
                                                            methods::prompts_list,   methods::resources_list,
                                                            methods::resources_templates_list, methods::resources_read};

template <std::size_t N>
bool one_of(const std::array<std::string_view, N>& names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

// subscriptions/listen's filter as the tasks extension widens it: the
// notifications/tasks of these tasks (`taskIds`).
struct extended_filter : subscription_filter {
  std::optional<std::vector<std::string>> task_ids = {};
};
BOOST_DESCRIBE_STRUCT(extended_filter, (subscription_filter), (task_ids))
[[maybe_unused]] auto mcp_fields(type_t<extended_filter>) {
  return std::tuple{field(&extended_filter::task_ids).key("taskIds")};
}
struct extended_listen_params {
  extended_filter notifications;
};
BOOST_DESCRIBE_STRUCT(extended_listen_params, (), (notifications))
[[maybe_unused]] auto mcp_fields(type_t<extended_listen_params>) {
  return std::tuple{field(&extended_listen_params::notifications).not_required()};
}

}  // namespace

bool removed_in_modern_era(std::string_view method) noexcept { return one_of(removed_methods, method); }

std::vector<std::string> modern_version_names(std::span<const protocol_version> supported) {
  std::vector<std::string> names;
  for (const auto v : supported)
    if (is_modern(v)) names.emplace_back(to_string(v));
  return names;
}

json::object make_discover_result(std::span<const protocol_version> supported, json::object capabilities,
                             std::optional<std::string> instructions) {
  discover_result result;
  result.supported_versions = modern_version_names(supported);
  result.capabilities = shape_capabilities(std::move(capabilities), dialect_of(protocol_version::v2026_07_28));
  result.instructions = std::move(instructions);
  return to_json_value(std::move(result)).as_object();
}

json::object& meta_of(json::object& params) {
  auto& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object{};
  return meta.get_object();
}

std::string_view result_type_of(const json::object& result) noexcept { return string_member(result, "resultType"); }

json::object input_required_result(input_required_members members) {
  json::object result{{"resultType", "input_required"}};  // (first, as a reader looks for it first)
  auto written = to_json_value(std::move(members));
  for (auto& [key, value] : written.as_object()) result.emplace(key, std::move(value));
  return result;
}

input_required_members read_input_required(const json::object& result) {
  return from_json<input_required_members>(result, read_options{.skip_mistyped_optionals = true});
}

json::object modern_server_info(const implementation& info) {
  return to_json(info, dialect_of(protocol_version::v2026_07_28));
}

json::object finish_modern_result(const request& req, json::object result, json::object server_info) {
  result.reserve(result.size() + 4);  // (room for what is added: one growth, not one per member)
  if (!result.contains("resultType")) result["resultType"] = "complete";
  if (one_of(cacheable_methods, req.method)) {
    // A retry of a multi-round request depends on inputs outside the cache key.
    const bool retried = req.params.contains("inputResponses") || req.params.contains("requestState");
    if (retried || !result.contains("ttlMs")) result["ttlMs"] = 0;
    if (retried || !result.contains("cacheScope")) result["cacheScope"] = "private";
  }
  auto& meta = meta_of(result);
  if (!meta.contains(meta_key::server_info)) meta[meta_key::server_info] = std::move(server_info);
  return result;
}

listen_filter listen_filter::read(const json::object& params, const json::object& capabilities,
                                  const json::object& client_capabilities) {
  auto filter = read_params<extended_listen_params>(params).notifications;
  listen_filter honored;
  honored.tools = filter.tools_list_changed.value_or(false) && declares_feature(capabilities, "tools", "listChanged");
  honored.prompts =
      filter.prompts_list_changed.value_or(false) && declares_feature(capabilities, "prompts", "listChanged");
  honored.resources =
      filter.resources_list_changed.value_or(false) && declares_feature(capabilities, "resources", "listChanged");
  if (filter.resource_subscriptions && declares_feature(capabilities, "resources", "subscribe"))
    honored.resource_uris = std::move(*filter.resource_subscriptions);
  if (filter.task_ids) {
    if (!declares_tasks_extension(client_capabilities)) throw missing_tasks_extension("notifications.taskIds");
    if (declares_tasks_extension(capabilities)) honored.task_ids = std::move(*filter.task_ids);
  }
  return honored;
}

json::object listen_filter::to_json() const {
  extended_filter honored;
  if (tools) honored.tools_list_changed = true;
  if (prompts) honored.prompts_list_changed = true;
  if (resources) honored.resources_list_changed = true;
  if (!resource_uris.empty()) honored.resource_subscriptions = resource_uris;
  if (!task_ids.empty()) honored.task_ids = task_ids;
  return to_json_value(std::move(honored)).as_object();
}

bool listen_filter::admits(const notification& n) const {
  if (n.method == methods::notifications_tools_list_changed) return tools;
  if (n.method == methods::notifications_prompts_list_changed) return prompts;
  if (n.method == methods::notifications_resources_list_changed) return resources;
  // (The server's own notifications: their subject is read where it is.)
  if (n.method == methods::notifications_resources_updated)
    return std::ranges::find(resource_uris, string_member(n.params, "uri")) != resource_uris.end();
  if (n.method == methods::notifications_tasks)
    return std::ranges::find(task_ids, string_member(n.params, "taskId")) != task_ids.end();
  return false;
}

json::object listen_acknowledgement(const request_id& id, const listen_filter& honored) {
  return json::object{{"notifications", honored.to_json()},
                      {"_meta", json::object{{meta_key::subscription_id, mcp::to_json(id)}}}};
}

json::object listen_closing_result(const request_id& id) {
  return json::object{{"resultType", "complete"},
                      {"_meta", json::object{{meta_key::subscription_id, mcp::to_json(id)}}}};
}

}  // namespace mcp::detail
