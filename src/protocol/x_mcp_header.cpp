#include "x_mcp_header.hpp"

#include "../detail/decimal.hpp"

#include <mcp/base64.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

namespace {

constexpr std::string_view annotation = "x-mcp-header";

constexpr std::string_view sentinel_prefix = "=?base64?", sentinel_suffix = "?=";

// RFC 9110 field-value characters: visible ASCII, space and tab.
bool field_value_chars(std::string_view value) {
  return std::ranges::all_of(value, [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= 0x20 && u < 0x7f) || u == '\t';
  });
}

// A value a header carries as it is: field characters, no whitespace at
// either end (a header would lose it), and not looking like the sentinel.
bool plain_header_value(std::string_view value) {
  if (value.empty()) return true;
  if (value.front() == ' ' || value.front() == '\t' || value.back() == ' ' || value.back() == '\t') return false;
  if (value.starts_with(sentinel_prefix) && value.ends_with(sentinel_suffix)) return false;
  return field_value_chars(value);
}

// RFC 9110 tchar.
bool is_token(std::string_view text) {
  return !text.empty() && std::ranges::all_of(text, [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return std::isalnum(u) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
  });
}

// Header names compare case-insensitively (ASCII only, whatever the locale).
bool same_header_name(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return std::ranges::equal(a, b, [&](char x, char y) { return lower(x) == lower(y); });
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

// A double that is an integer within JavaScript's safe range, the only
// integers the annotation allows (streamable-http, "x-mcp-header"); checked
// before the conversion, which is undefined for a value beyond int64's range.
std::optional<std::int64_t> safe_integer(const json::value& value) {
  constexpr double safe_limit = 9007199254740991.0;  // 2^53 - 1
  if (!value.is_double()) return std::nullopt;
  const double number = value.get_double();
  if (!(std::fabs(number) <= safe_limit) || std::trunc(number) != number) return std::nullopt;
  return static_cast<std::int64_t>(number);
}

// The argument at `path` in the arguments, or null.
const json::value* argument_at(const json::object& arguments, const std::vector<std::string>& path) {
  const json::value* value = nullptr;
  const json::object* level = &arguments;
  for (const auto& key : path) {
    value = level ? level->if_contains(key) : nullptr;
    if (!value) return nullptr;
    level = value->if_object();
  }
  return value;
}

// A header's text read as a decimal number ("42", "42.0", "4.2e1"); not the
// whitespace, hexadecimal, infinities and NaN that strtod would take too.
std::optional<double> decimal_number(std::string_view text) {
  const auto digits = text.starts_with('-') ? text.substr(1) : text;
  if (digits.empty() || !std::isdigit(static_cast<unsigned char>(digits.front()))) return std::nullopt;
  return read_decimal(text);
}

// What a header mirrors of an argument: its text, when it is a primitive the
// annotation allows (not absent or null).
std::optional<std::string> mirrored_text(const json::value* value) {
  if (!value) return std::nullopt;
  if (value->is_string()) return std::string(value->get_string());
  if (value->is_bool()) return value->get_bool() ? "true" : "false";
  if (value->is_int64()) return std::to_string(value->get_int64());
  if (value->is_uint64()) return std::to_string(value->get_uint64());
  if (const auto whole = safe_integer(*value)) return std::to_string(*whole);
  return std::nullopt;  // null, or not a primitive the annotation allows
}

}  // namespace

std::optional<std::vector<mirrored_param>> mirrored_params(const json::object& input_schema, std::string& why) {
  std::vector<mirrored_param> params;
  std::vector<std::string> path;
  if (!collect(input_schema, path, true, params, why)) return std::nullopt;
  for (std::size_t i = 0; i < params.size(); ++i)
    for (std::size_t j = i + 1; j < params.size(); ++j)
      if (same_header_name(params[i].header, params[j].header)) {
        why = "x-mcp-header " + params[j].header + " is not unique";
        return std::nullopt;
      }
  return params;
}

std::vector<std::pair<std::string, std::string>> mirror_arguments(const std::vector<mirrored_param>& params,
                                                                  const json::object& arguments) {
  std::vector<std::pair<std::string, std::string>> headers;
  for (const auto& param : params)
    if (auto text = mirrored_text(argument_at(arguments, param.path)))
      headers.emplace_back("Mcp-Param-" + param.header, std::move(*text));
  return headers;
}

std::string encode_header_value(std::string_view value) {
  if (plain_header_value(value)) return std::string(value);
  return std::string(sentinel_prefix) + base64_encode(value) + std::string(sentinel_suffix);
}

std::optional<std::string> decode_header_value(std::string_view text) {
  if (text.size() >= sentinel_prefix.size() + sentinel_suffix.size() && text.starts_with(sentinel_prefix) &&
      text.ends_with(sentinel_suffix))
    return base64_decode(text.substr(sentinel_prefix.size(), text.size() - sentinel_prefix.size() - sentinel_suffix.size()));
  if (!field_value_chars(text)) return std::nullopt;
  return std::string(text);
}

std::optional<std::string> mirrored_mismatch(
    const std::vector<mirrored_param>& params, const json::object& arguments,
    const std::function<std::optional<std::string_view>(std::string_view)>& header) {
  for (const auto& param : params) {
    const auto name = "Mcp-Param-" + param.header;
    const auto* argument = argument_at(arguments, param.path);
    const auto wanted = mirrored_text(argument);
    const auto sent = header(name);
    if (!wanted) {
      if (sent) return "Header mismatch: " + name + " is set but the argument it mirrors is absent";
      continue;
    }
    if (!sent) return "Header mismatch: the " + name + " header is missing";
    const auto value = decode_header_value(*sent);
    if (!value) return "Header mismatch: " + name + " holds characters a header value may not";
    if (*value == *wanted) continue;
    // An integer argument compares as a number ("42.0" and "42" agree); a
    // string or boolean one only as its text.
    const auto number = argument->is_number() ? decimal_number(*value) : std::nullopt;
    if (number && *number == argument->to_number<double>()) continue;
    return "Header mismatch: " + name + " header value '" + *value + "' does not match body value '" + *wanted +
           "'";
  }
  return std::nullopt;
}

}  // namespace mcp::detail
