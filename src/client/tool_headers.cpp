#include "tool_headers.hpp"

#include <boost/beast/core/string.hpp>

#include <algorithm>
#include <string_view>

namespace mcp::detail {

namespace {

constexpr std::string_view annotation = "x-mcp-header";

// RFC 9110 tchar.
bool is_token(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

// Walks a schema: annotations count where only `properties` led to them
// (`reachable`); anywhere else (items, anyOf, $defs...) they make it invalid.
bool collect(const json::value& node, std::vector<std::string>& path, bool reachable,
             std::vector<mirrored_param>& out, std::string& why) {
  if (const auto* list = node.if_array()) {
    for (const auto& item : *list)
      if (!collect(item, path, false, out, why)) return false;
    return true;
  }
  const auto* schema = node.if_object();
  if (!schema) return true;
  for (const auto& [key, value] : *schema) {
    if (key == annotation) {
      if (!reachable || path.empty()) return why = "x-mcp-header outside the schema's properties", false;
      if (!value.is_string() || !is_token(value.get_string()))
        return why = "x-mcp-header of " + path.back() + " is not an HTTP header token", false;
      const auto* type = schema->if_contains("type");
      if (!type || !(*type == "string" || *type == "integer" || *type == "boolean"))
        return why = "x-mcp-header on " + path.back() + ", which is not a string, integer or boolean", false;
      out.push_back({std::string(value.get_string()), path});
    } else if (key == "properties" && value.is_object()) {
      for (const auto& [name, property] : value.get_object()) {
        path.emplace_back(name);
        const bool ok = collect(property, path, reachable, out, why);
        path.pop_back();
        if (!ok) return false;
      }
    } else if (!collect(value, path, false, out, why)) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<std::vector<mirrored_param>> mirrored_params(const json::object& input_schema, std::string& why) {
  std::vector<mirrored_param> params;
  std::vector<std::string> path;
  if (!collect(input_schema, path, true, params, why)) return std::nullopt;
  for (std::size_t i = 0; i < params.size(); ++i)
    for (std::size_t j = i + 1; j < params.size(); ++j)
      if (boost::beast::iequals(params[i].header, params[j].header)) {
        why = "x-mcp-header " + params[j].header + " is not unique";
        return std::nullopt;
      }
  return params;
}

std::vector<std::pair<std::string, std::string>> mirror_arguments(const std::vector<mirrored_param>& params,
                                                                  const json::object& arguments) {
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& param : params) {
    const json::value* value = nullptr;
    const json::object* level = &arguments;
    for (const auto& key : param.path) {
      value = level ? level->if_contains(key) : nullptr;
      level = value ? value->if_object() : nullptr;
      if (!value) break;
    }
    if (!value || value->is_null()) continue;
    std::string text;
    if (value->is_string()) text = value->get_string();
    else if (value->is_bool()) text = value->get_bool() ? "true" : "false";
    else if (value->is_int64()) text = std::to_string(value->get_int64());
    else if (value->is_uint64()) text = std::to_string(value->get_uint64());
    else if (value->is_double() && value->get_double() == static_cast<double>(static_cast<std::int64_t>(value->get_double())))
      text = std::to_string(static_cast<std::int64_t>(value->get_double()));
    else continue;  // not a primitive the annotation allows
    headers.emplace_back("Mcp-Param-" + param.header, std::move(text));
  }
  return headers;
}

}  // namespace mcp::detail
