#pragma once
// Narrows what handlers produce (the newest revision's form, protocol/wire.hpp)
// to the revision a session negotiated: keys a revision does not define are
// left out, and content types it lacks become text blocks that say what they
// were. Which key needs which feature is a table in shaping.cpp.

#include <mcp/protocol/versions.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string_view>

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

/// The params of notifications/progress: `message` only where the revision
/// has it (2025-03-26 on), whole numbers as integers.
json::object progress_params(const json::value& token, double progress, std::optional<double> total,
                             std::string_view message, const dialect& d);
/// An input request's params as the revision knows them: elicitation has no
/// `mode` before 2025-11-25.
void shape_input_params(json::object& params, const dialect& d);

// What else differs between the eras in the answers a server gives.

/// The error code of an unknown resource: -32002 up to 2025-11-25, -32602
/// from 2026-07-28 on (SEP-2164).
int resource_not_found_code(const dialect& d) noexcept;
/// Results carry caching hints (ttlMs, cacheScope) from 2026-07-28 on.
bool carries_cache_hints(const dialect& d) noexcept;
/// A tools/call's Mcp-Param-* headers mirror its arguments from 2026-07-28 on.
bool mirrors_arguments_in_headers(const dialect& d) noexcept;

}  // namespace mcp::detail
