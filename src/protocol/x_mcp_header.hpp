#pragma once
// `x-mcp-header` (basic/transports/streamable-http, "Custom Headers from Tool
// Parameters"): tool arguments a server wants mirrored into `Mcp-Param-*`
// HTTP headers, the rules their annotations must follow, and the values a
// call mirrors.

#include <boost/json/object.hpp>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

namespace json = boost::json;

/// One annotated argument: the header (`Mcp-Param-<name>`) and the chain of
/// `properties` keys that leads to it.
struct mirrored_param {
  std::string header;
  std::vector<std::string> path;
};

/// The annotations of an inputSchema, or nullopt with `why` when one breaks
/// a rule: not a header token, not unique (case-insensitively), on a type
/// other than string, integer or boolean, or not reachable through
/// `properties` alone. A client drops such a tool from its list.
std::optional<std::vector<mirrored_param>> mirrored_params(const json::object& input_schema, std::string& why);

/// The headers a call with `arguments` carries: name and raw value (which
/// encode_header_value writes for the wire); an absent or null argument has none.
std::vector<std::pair<std::string, std::string>> mirror_arguments(const std::vector<mirrored_param>& params,
                                                                  const json::object& arguments);

/// A value as a header carries it (Mcp-Name, Mcp-Param-*): as it is when
/// that is a plain header value, else `=?base64?...?=`.
std::string encode_header_value(std::string_view value);
/// What a header carries: its text, or the decoded `=?base64?...?=`;
/// nullopt for characters a header value may not hold or bad Base64.
std::optional<std::string> decode_header_value(std::string_view text);

/// Why the `Mcp-Param-*` headers of a tools/call do not match its
/// arguments, if they do not (the message of a -32020): a mirrored argument
/// without its header, a header without its argument, or another value
/// (integers compared as numbers). `header` looks a header up by name.
std::optional<std::string> mirrored_mismatch(const std::vector<mirrored_param>& params,
                                             const json::object& arguments,
                                             const std::function<std::optional<std::string_view>(std::string_view)>& header);

}  // namespace mcp::detail
