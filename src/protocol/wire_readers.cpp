#include "wire_readers.hpp"

#include <mcp/protocol/wire.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::detail {

tool_info read_tool(const json::value& value) {
  auto tool = read_from_server<tool_info>(value, "tool");
  // execution.taskSupport (2025-11-25): an unknown value reads as forbidden.
  if (const auto* execution = value.as_object().if_contains("execution"); execution && execution->is_object())
    if (const auto* support = execution->get_object().if_contains("taskSupport"); support && support->is_string()) {
      if (*support == "optional") tool.task_support = task_support::optional;
      if (*support == "required") tool.task_support = task_support::required;
    }
  return tool;
}

resource_info read_resource(const json::value& value) {
  auto resource = read_from_server<resource_info>(value, "resource");
  if (resource.name.empty()) resource.name = resource.uri;
  return resource;
}

resource_template_info read_resource_template(const json::value& value) {
  auto info = read_from_server<resource_template_info>(value, "resource template");
  if (info.name.empty()) info.name = info.uri_template;
  return info;
}

prompt_info read_prompt(const json::value& value) { return read_from_server<prompt_info>(value, "prompt"); }

get_prompt_result read_prompt_result(const json::object& result) {
  return read_from_server<get_prompt_result>(result, "prompt result");
}

call_tool_result read_call_tool_result(const json::object& result) {
  return read_from_server<call_tool_result>(result, "tool result");
}

call_tool_result read_call_tool_result(json::object&& result) {
  // Moved out only when they have the type the reader wants: otherwise it
  // says what is wrong with them.
  std::optional<json::array> content;
  std::optional<json::object> meta;
  if (auto* given = result.if_contains("content"); given && given->is_array())
    content.emplace(std::move(given->get_array()));  // the moved-from array stays, empty
  if (auto* given = result.if_contains("_meta"); given && given->is_object()) meta.emplace(std::move(given->get_object()));
  auto read = read_call_tool_result(std::as_const(result));
  if (!content && !meta) return read;
  return call_tool_result{content ? json::array(std::move(*content)) : std::move(read.content),
                          std::move(read.structured_content), read.is_error,
                          meta ? json::object(std::move(*meta)) : std::move(read.meta)};
}

resource_contents read_resource_contents(const json::value& value) {
  return read_from_server<resource_contents>(value, "resource contents");
}

completion read_completion(const json::object& result) {
  const auto* body = result.if_contains("completion");
  if (body == nullptr) throw malformed_result("the server sent no completion", "completion/complete");
  return read_from_server<completion>(*body, "completion");
}

log_message read_log_message(const json::object& params) {
  return read_from_server<log_message>(params, "log message");
}

}  // namespace mcp::detail
