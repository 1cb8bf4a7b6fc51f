#include "wire_readers.hpp"

#include <mcp/protocol/wire.hpp>

#include "read_params.hpp"
#include "tool_execution.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace mcp::detail {

tool_info read_tool(const json::value& value) {
  auto tool = read_from_server<tool_info>(value, "tool");
  // execution.taskSupport (2025-11-25 on): an unknown value reads as forbidden.
  if (const auto read = read_if<tool_execution_member>(value); read && read->execution)
    tool.task_support = read->execution->task_support;
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

std::vector<resource_contents> read_resource_contents(const json::object& result) {
  return read_from_server<read_resource_result>(result, "resources/read result", "resources/read").contents;
}

completion read_completion(const json::object& result) {
  return read_from_server<complete_result>(result, "completion/complete result", "completion/complete").completion;
}

log_message read_log_message(const json::object& params) {
  return read_from_server<log_message>(params, "log message");
}

}  // namespace mcp::detail
