#include <mcp/protocol/methods.hpp>

#include <algorithm>
#include <array>

namespace mcp {

namespace {

using v = protocol_version;
constexpr auto req = method_kind::request;
constexpr auto note = method_kind::notification;

// The revisions of each era, and a few spans the table needs.
constexpr auto every = version_set::since(v::v2024_11_05);
constexpr auto legacy = version_set::between(v::v2024_11_05, v::v2025_11_25);
constexpr auto modern = version_set{v::v2026_07_28};
constexpr auto elicitation_on = version_set::between(v::v2025_06_18, v::v2025_11_25);
constexpr auto only_2025_11_25 = version_set{v::v2025_11_25};
constexpr version_set none;

// From the `ClientRequest`, `ClientNotification`, `ServerRequest` and
// `ServerNotification` unions of each revision's schema.json.
constexpr std::array table{
    method_info{methods::initialize, req, legacy, none, none},
    method_info{methods::ping, req, legacy, legacy, none},
    method_info{methods::server_discover, req, modern, none, none},
    method_info{methods::tools_list, req, every, none, none},
    method_info{methods::tools_call, req, every, none, none},
    method_info{methods::resources_list, req, every, none, none},
    method_info{methods::resources_templates_list, req, every, none, none},
    method_info{methods::resources_read, req, every, none, none},
    method_info{methods::resources_subscribe, req, legacy, none, none},
    method_info{methods::resources_unsubscribe, req, legacy, none, none},
    method_info{methods::prompts_list, req, every, none, none},
    method_info{methods::prompts_get, req, every, none, none},
    method_info{methods::completion_complete, req, every, none, none},
    method_info{methods::logging_set_level, req, legacy, none, none},
    method_info{methods::subscriptions_listen, req, modern, none, none},
    method_info{methods::tasks_get, req, only_2025_11_25, only_2025_11_25, none},
    method_info{methods::tasks_list, req, only_2025_11_25, only_2025_11_25, none},
    method_info{methods::tasks_result, req, only_2025_11_25, only_2025_11_25, none},
    method_info{methods::tasks_cancel, req, only_2025_11_25, only_2025_11_25, none},
    method_info{methods::sampling_create_message, req, none, legacy, modern},
    method_info{methods::elicitation_create, req, none, elicitation_on, modern},
    method_info{methods::roots_list, req, none, legacy, modern},
    method_info{methods::notifications_initialized, note, legacy, none, none},
    method_info{methods::notifications_cancelled, note, every, every, none},
    method_info{methods::notifications_progress, note, legacy, every, none},
    method_info{methods::notifications_message, note, none, every, none},
    method_info{methods::notifications_resources_updated, note, none, every, none},
    method_info{methods::notifications_resources_list_changed, note, none, every, none},
    method_info{methods::notifications_tools_list_changed, note, none, every, none},
    method_info{methods::notifications_prompts_list_changed, note, none, every, none},
    method_info{methods::notifications_roots_list_changed, note, legacy, none, none},
    method_info{methods::notifications_subscriptions_acknowledged, note, none, modern, none},
    method_info{methods::notifications_elicitation_complete, note, none, only_2025_11_25, none},
    method_info{methods::notifications_tasks_status, note, only_2025_11_25, only_2025_11_25, none},
};

}  // namespace

std::span<const method_info> all_methods() noexcept { return table; }

const method_info* find_method(std::string_view name) noexcept {
  const auto it = std::ranges::find(table, name, &method_info::name);
  return it == table.end() ? nullptr : &*it;
}

}  // namespace mcp
