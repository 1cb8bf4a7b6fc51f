#pragma once
// `x-mcp-header` (basic/transports/streamable-http, "Custom Headers from Tool
// Parameters"): tool arguments a server wants mirrored into `Mcp-Param-*`
// HTTP headers, the rules their annotations must follow, and the values a
// call mirrors.

#include <boost/json/object.hpp>

#include <optional>
#include <string>
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

/// The headers a call with `arguments` carries: name and raw value (the
/// transport encodes it); an absent or null argument has none.
std::vector<std::pair<std::string, std::string>> mirror_arguments(const std::vector<mirrored_param>& params,
                                                                  const json::object& arguments);

}  // namespace mcp::detail
