#include "input_round.hpp"

#include <mcp/protocol/methods.hpp>

namespace mcp::detail {

bool answers_input(std::string_view method, const json::value& answer) noexcept {
  const auto* result = answer.if_object();
  if (!result) return false;
  if (method == methods::elicitation_create) {
    const auto* action = result->if_contains("action");
    if (!action || !action->is_string()) return false;
    const auto& a = action->get_string();
    const auto* content = result->if_contains("content");
    return (a == "accept" || a == "decline" || a == "cancel") &&
           (!content || content->is_object() || content->is_null());
  }
  if (method == methods::sampling_create_message) {
    const auto* role = result->if_contains("role");
    const auto* content = result->if_contains("content");
    return role && role->is_string() && content && (content->is_object() || content->is_array());
  }
  if (method == methods::roots_list) {
    const auto* roots = result->if_contains("roots");
    return roots && roots->is_array();
  }
  return false;
}

std::string_view capability_for(std::string_view method) noexcept {
  if (method == methods::elicitation_create) return "elicitation";
  if (method == methods::sampling_create_message) return "sampling";
  return "roots";
}

bool accepts_input(std::string_view method) noexcept {
  return method == methods::tools_call || method == methods::prompts_get || method == methods::resources_read;
}

}  // namespace mcp::detail
