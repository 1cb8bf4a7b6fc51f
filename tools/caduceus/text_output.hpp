#pragma once
// The results of the SDK as aligned, concise text: what caduceus prints
// without --json. Each function returns whole lines.

#include <mcp/client/client.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>

#include <string>
#include <vector>

namespace caduceus {

std::string info_text(const mcp::initialize_result& info);
std::string tools_text(const std::vector<mcp::tool_info>& tools);
/// Text blocks as they are, other blocks noted by type and size, then the
/// structured content when there is some.
std::string tool_result_text(const mcp::call_tool_result& result);
std::string resources_text(const std::vector<mcp::resource_info>& resources,
                           const std::vector<mcp::resource_template_info>& templates);
std::string contents_text(const std::vector<mcp::resource_contents>& contents);
std::string prompts_text(const std::vector<mcp::prompt_info>& prompts);
std::string prompt_text(const mcp::get_prompt_result& prompt);
std::string completion_text(const mcp::completion& completion);
/// One line for a server log message (for stderr).
std::string log_text(const mcp::log_message& message);

/// A content block in one line: its text, or `[type mime, N bytes]`.
std::string content_text(const boost::json::object& block);

}  // namespace caduceus
