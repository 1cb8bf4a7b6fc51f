#pragma once
// The results of the SDK as JSON, in the shape of the MCP result they come
// from (camelCase names, optional members left out when absent): what
// `--json` prints.

#include <mcp/client/client.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <vector>

namespace caduceus {

namespace json = boost::json;

json::object info_json(const mcp::initialize_result& info);
json::object tools_json(const std::vector<mcp::tool_info>& tools);
json::object resources_json(const std::vector<mcp::resource_info>& resources,
                            const std::vector<mcp::resource_template_info>& templates);
json::object contents_json(const std::vector<mcp::resource_contents>& contents);
json::object prompts_json(const std::vector<mcp::prompt_info>& prompts);
json::object prompt_json(const mcp::get_prompt_result& prompt);
json::object completion_json(const mcp::completion& completion);

/// Compact JSON text, like json::serialize but with numbers as people write
/// them: 5.5 rather than 5.5E0.
std::string json_text(const json::value& value);

/// Writes `value` on stdout as one JSON document and a newline.
void print_json(const json::value& value);

}  // namespace caduceus
