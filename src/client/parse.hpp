#pragma once
// Reading what a server sends into the shared protocol types. Lenient where
// the spec lets servers omit things, strict where a client could not go on:
// a missing name or URI is an error naming the field.

#include <mcp/protocol/types.hpp>

namespace mcp::detail {

tool_info parse_tool(const json::value& value);
resource_info parse_resource(const json::value& value);
resource_template_info parse_resource_template(const json::value& value);
prompt_info parse_prompt(const json::value& value);
get_prompt_result parse_prompt_result(const json::object& result);
call_tool_result parse_call_tool_result(const json::object& result);
resource_contents parse_resource_contents(const json::value& value);

}  // namespace mcp::detail
