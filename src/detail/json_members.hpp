#pragma once
// Optional members of a JSON object, as the logs, metrics, traces, routing
// rules and task statuses read them: absent or mistyped reads as empty or
// false (a tool result's `isError` among them).

#include <boost/json/object.hpp>

#include <string_view>

namespace mcp::detail {

/// `object[key]` when it is a string, else empty.
inline std::string_view string_member(const boost::json::object& object, std::string_view key) noexcept {
  const auto* value = object.if_contains(key);
  return value && value->is_string() ? std::string_view(value->get_string()) : std::string_view();
}

/// `object[key]` when it is a boolean, else false.
inline bool flag_member(const boost::json::object& object, std::string_view key) noexcept {
  const auto* value = object.if_contains(key);
  return value && value->is_bool() && value->get_bool();
}

}  // namespace mcp::detail
