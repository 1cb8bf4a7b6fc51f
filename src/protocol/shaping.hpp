#pragma once
// Narrows what handlers produce (the newest revision's form, protocol/wire.hpp)
// to the revision a session negotiated: keys a revision does not define are
// left out, and content types it lacks become text blocks that say what they
// were. Which key needs which feature is a table in shaping.cpp.

#include <mcp/protocol/versions.hpp>

#include <boost/json/object.hpp>

namespace mcp::detail {

namespace json = boost::json;

/// A resource, resource template or prompt entry of a list result.
json::object shape_listing(json::object entry, const dialect& d);
/// A tool entry of tools/list.
json::object shape_tool(json::object tool, const dialect& d);
/// `clientInfo` / `serverInfo`.
json::object shape_implementation(json::object info, const dialect& d);
/// A content block (tool results, prompt messages).
json::object shape_content(json::object block, const dialect& d);
json::object shape_call_tool_result(json::object result, const dialect& d);
/// The result of prompts/get: the content of each message.
json::object shape_prompt_result(json::object result, const dialect& d);

}  // namespace mcp::detail
