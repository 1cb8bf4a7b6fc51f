#include "modern_era.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "invalid_params.hpp"

#include <algorithm>
#include <array>

namespace mcp::detail {

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

bool flag(const json::object& filter, std::string_view key) {
  const auto* value = filter.if_contains(key);
  if (value && !value->is_bool()) invalid_params("notifications." + std::string(key) + " must be a boolean");
  return value && value->get_bool();
}

}  // namespace

bool removed_in_modern_era(std::string_view method) noexcept { return one_of(removed_methods, method); }

json::array modern_version_names(std::span<const protocol_version> supported) {
  json::array names;
  for (const auto v : supported)
    if (is_modern(v)) names.emplace_back(to_string(v));
  return names;
}

json::object make_discover_result(std::span<const protocol_version> supported, json::object capabilities,
                             std::optional<std::string> instructions) {
  json::object result{{"supportedVersions", modern_version_names(supported)},
                      {"capabilities", shape_capabilities(std::move(capabilities),
                                                          dialect_of(protocol_version::v2026_07_28))}};
  if (instructions) result["instructions"] = std::move(*instructions);
  return result;
}

json::object& meta_of(json::object& params) {
  auto& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object{};
  return meta.get_object();
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

namespace {

constexpr std::string_view tasks_extension = "io.modelcontextprotocol/tasks";

bool declares_tasks_extension(const json::object& capabilities) {
  const auto* extensions = capabilities.if_contains("extensions");
  return extensions && extensions->is_object() && extensions->get_object().contains(tasks_extension);
}

}  // namespace

listen_filter listen_filter::read(const json::object& params, const json::object& capabilities,
                                  const json::object& client_capabilities) {
  static const json::object nothing;
  const auto* given = params.if_contains("notifications");
  if (given && !given->is_object()) invalid_params("notifications must be an object");
  const auto& filter = given ? given->get_object() : nothing;
  listen_filter honored;
  honored.tools = flag(filter, "toolsListChanged") && declares_feature(capabilities, "tools", "listChanged");
  honored.prompts = flag(filter, "promptsListChanged") && declares_feature(capabilities, "prompts", "listChanged");
  honored.resources =
      flag(filter, "resourcesListChanged") && declares_feature(capabilities, "resources", "listChanged");
  if (const auto* uris = filter.if_contains("resourceSubscriptions")) {
    if (!uris->is_array()) invalid_params("notifications.resourceSubscriptions must be an array of URIs");
    for (const auto& uri : uris->get_array()) {
      if (!uri.is_string()) invalid_params("notifications.resourceSubscriptions must be an array of URIs");
      if (declares_feature(capabilities, "resources", "subscribe")) honored.resource_uris.emplace_back(uri.get_string());
    }
  }
  if (const auto* ids = filter.if_contains("taskIds")) {
    if (!ids->is_array()) invalid_params("notifications.taskIds must be an array of task ids");
    if (!declares_tasks_extension(client_capabilities)) {
      json::object required{{"extensions", json::object{{tasks_extension, json::object{}}}}};
      throw protocol_error(errc::missing_client_capability,
                           "Missing required client capability: task notifications need the " +
                               std::string(tasks_extension) + " extension",
                           json::object{{"requiredCapabilities", std::move(required)}});
    }
    for (const auto& id : ids->get_array()) {
      if (!id.is_string()) invalid_params("notifications.taskIds must be an array of task ids");
      if (declares_tasks_extension(capabilities)) honored.task_ids.emplace_back(id.get_string());
    }
  }
  return honored;
}

json::object listen_filter::to_json() const {
  subscription_filter honored;
  if (tools) honored.tools_list_changed = true;
  if (prompts) honored.prompts_list_changed = true;
  if (resources) honored.resources_list_changed = true;
  if (!resource_uris.empty()) honored.resource_subscriptions = resource_uris;
  auto out = to_json_value(std::move(honored)).as_object();
  if (!task_ids.empty()) {
    json::array ids;
    for (const auto& id : task_ids) ids.emplace_back(id);
    out["taskIds"] = std::move(ids);
  }
  return out;
}

bool listen_filter::admits(const notification& n) const {
  if (n.method == methods::notifications_tools_list_changed) return tools;
  if (n.method == methods::notifications_prompts_list_changed) return prompts;
  if (n.method == methods::notifications_resources_list_changed) return resources;
  if (n.method == methods::notifications_resources_updated) {
    const auto* uri = n.params.if_contains("uri");
    if (!uri || !uri->is_string()) return false;
    const std::string_view wanted = uri->get_string();
    return std::ranges::find(resource_uris, wanted) != resource_uris.end();
  }
  if (n.method == methods::notifications_tasks) {
    const auto* id = n.params.if_contains("taskId");
    if (!id || !id->is_string()) return false;
    const std::string_view wanted = id->get_string();
    return std::ranges::find(task_ids, wanted) != task_ids.end();
  }
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
