#pragma once
// Optional members of a JSON object, as the logs, metrics, traces, routing
// rules and task statuses read them: absent or mistyped reads as empty or
// false (a tool result's `isError` among them). Also the way into an open
// capabilities object, whose keys a revision or an extension may add.

#include <boost/json/object.hpp>

#include <initializer_list>
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

/// The object at `path` under `object` (`{"tasks", "requests", "tools"}`),
/// or null when a step is absent or not an object.
inline const boost::json::object* object_at(const boost::json::object& object,
                                            std::initializer_list<std::string_view> path) noexcept {
  const auto* at = &object;
  for (const auto key : path) {
    const auto* value = at->if_contains(key);
    at = value ? value->if_object() : nullptr;
    if (!at) return nullptr;
  }
  return at;
}

}  // namespace mcp::detail
