#pragma once
// Reading what a peer sends into the shared protocol types (their JSON form
// is declared in mcp/protocol/wire.hpp). Lenient where the spec lets a peer
// leave things out: a mistyped optional member is skipped. Strict where we
// could not go on: a missing or mistyped name or URI, or a malformed item of
// a list, is a malformed_result saying where.

#include <mcp/json/convert.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

namespace json = boost::json;

/// Reads a described T from what a peer sent, skipping mistyped optional
/// members; a conversion error becomes the exception `refusal` makes of it
/// (a protocol_error for a client's params, a malformed_result for a
/// server's result).
template <class T, class Json, class Refusal>
T read_sent(const Json& value, Refusal&& refusal) {
  try {
    return from_json<T>(value, read_options{.skip_mistyped_optionals = true});
  } catch (const conversion_error& e) {
    throw refusal(e);
  }
}

/// Reads a T a server sent; a conversion error is a malformed_result that
/// names `what`: "the server sent an invalid tool (/name: is required)".
/// `method` names the call whose result it is, when the reader knows it.
template <class T, class Json>
T read_from_server(const Json& value, std::string_view what, std::string_view method = {}) {
  return read_sent<T>(value, [what, method](const conversion_error& e) {
    return malformed_result("the server sent an invalid " + std::string(what) + " (" + e.what() + ")",
                            std::string(method));
  });
}

tool_info read_tool(const json::value& value);
/// A resource without a name is named by its URI. (MCP_API: caduceus::skills
/// calls it, a library of its own in a shared build.)
MCP_API resource_info read_resource(const json::value& value);
/// A template without a name is named by its URI template.
resource_template_info read_resource_template(const json::value& value);
prompt_info read_prompt(const json::value& value);
get_prompt_result read_prompt_result(const json::object& result);
call_tool_result read_call_tool_result(const json::object& result);
/// The same, taking `content` and `_meta` over instead of copying them (they
/// keep the storage the reply was parsed into).
call_tool_result read_call_tool_result(json::object&& result);
/// The `contents` of a resources/read result.
std::vector<resource_contents> read_resource_contents(const json::object& result);
/// The `completion` of a completion/complete result.
completion read_completion(const json::object& result);
/// An unknown level reads as `info`.
log_message read_log_message(const json::object& params);

}  // namespace mcp::detail
