#include "parse.hpp"

#include <mcp/protocol/errors.hpp>

namespace mcp::detail {
namespace {

[[noreturn]] void invalid(std::string_view what) {
  throw protocol_error(errc::invalid_params, "the server sent an invalid " + std::string(what));
}

const json::object& object_of(const json::value& value, std::string_view what) {
  if (!value.is_object()) invalid(what);
  return value.get_object();
}

std::string required_string(const json::object& o, std::string_view key, std::string_view what) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_string()) invalid(std::string(what) + " (no string `" + std::string(key) + "`)");
  return std::string(v->get_string());
}

std::optional<std::string> optional_string(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

std::optional<bool> optional_bool(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  if (!v || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

json::object object_or_empty(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_object() ? v->get_object() : json::object();
}

json::array array_or_empty(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_array() ? v->get_array() : json::array();
}

}  // namespace

tool_info parse_tool(const json::value& value) {
  const auto& o = object_of(value, "tool");
  tool_info tool;
  tool.name = required_string(o, "name", "tool");
  tool.description = optional_string(o, "description").value_or("");
  tool.title = optional_string(o, "title");
  if (const auto* schema = o.if_contains("inputSchema"); schema && schema->is_object())
    tool.input_schema = schema->get_object();
  if (const auto* schema = o.if_contains("outputSchema"); schema && schema->is_object())
    tool.output_schema = schema->get_object();
  const auto annotations = object_or_empty(o, "annotations");
  tool.annotations.title = optional_string(annotations, "title");
  tool.annotations.read_only_hint = optional_bool(annotations, "readOnlyHint");
  tool.annotations.destructive_hint = optional_bool(annotations, "destructiveHint");
  tool.annotations.idempotent_hint = optional_bool(annotations, "idempotentHint");
  tool.annotations.open_world_hint = optional_bool(annotations, "openWorldHint");
  tool.icons = array_or_empty(o, "icons");
  tool.meta = object_or_empty(o, "_meta");
  return tool;
}

resource_info parse_resource(const json::value& value) {
  const auto& o = object_of(value, "resource");
  resource_info resource;
  resource.uri = required_string(o, "uri", "resource");
  resource.name = optional_string(o, "name").value_or(resource.uri);
  resource.title = optional_string(o, "title");
  resource.description = optional_string(o, "description");
  resource.mime_type = optional_string(o, "mimeType");
  if (const auto* size = o.if_contains("size"); size && size->is_number())
    resource.size = size->to_number<std::int64_t>();
  resource.annotations = object_or_empty(o, "annotations");
  resource.icons = array_or_empty(o, "icons");
  resource.meta = object_or_empty(o, "_meta");
  return resource;
}

resource_template_info parse_resource_template(const json::value& value) {
  const auto& o = object_of(value, "resource template");
  resource_template_info info;
  info.uri_template = required_string(o, "uriTemplate", "resource template");
  info.name = optional_string(o, "name").value_or(info.uri_template);
  info.title = optional_string(o, "title");
  info.description = optional_string(o, "description");
  info.mime_type = optional_string(o, "mimeType");
  info.annotations = object_or_empty(o, "annotations");
  info.icons = array_or_empty(o, "icons");
  info.meta = object_or_empty(o, "_meta");
  return info;
}

prompt_info parse_prompt(const json::value& value) {
  const auto& o = object_of(value, "prompt");
  prompt_info prompt;
  prompt.name = required_string(o, "name", "prompt");
  prompt.description = optional_string(o, "description");
  prompt.title = optional_string(o, "title");
  for (const auto& item : array_or_empty(o, "arguments")) {
    const auto& a = object_of(item, "prompt argument");
    prompt_argument argument;
    argument.name = required_string(a, "name", "prompt argument");
    argument.description = optional_string(a, "description");
    argument.required = optional_bool(a, "required").value_or(false);
    argument.title = optional_string(a, "title");
    prompt.arguments.push_back(std::move(argument));
  }
  prompt.icons = array_or_empty(o, "icons");
  prompt.meta = object_or_empty(o, "_meta");
  return prompt;
}

get_prompt_result parse_prompt_result(const json::object& result) {
  get_prompt_result out;
  out.description = optional_string(result, "description");
  for (const auto& item : array_or_empty(result, "messages")) {
    const auto& m = object_of(item, "prompt message");
    prompt_message message;
    message.role = required_string(m, "role", "prompt message");
    message.content = object_or_empty(m, "content");
    out.messages.push_back(std::move(message));
  }
  return out;
}

call_tool_result parse_call_tool_result(const json::object& result) {
  call_tool_result out;
  out.content = array_or_empty(result, "content");
  if (const auto* structured = result.if_contains("structuredContent")) out.structured_content = *structured;
  out.is_error = optional_bool(result, "isError").value_or(false);
  out.meta = object_or_empty(result, "_meta");
  return out;
}

resource_contents parse_resource_contents(const json::value& value) {
  const auto& o = object_of(value, "resource contents");
  resource_contents contents;
  contents.uri = required_string(o, "uri", "resource contents");
  contents.mime_type = optional_string(o, "mimeType");
  contents.text = optional_string(o, "text");
  contents.blob = optional_string(o, "blob");
  contents.meta = object_or_empty(o, "_meta");
  return contents;
}

}  // namespace mcp::detail
