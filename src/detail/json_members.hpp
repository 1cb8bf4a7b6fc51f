#pragma once
// An optional string member of a JSON object, as the server's logs, metrics,
// traces and routing rules read one: absent or not a string reads as empty.

#include <boost/json/object.hpp>

#include <string_view>

namespace mcp::detail {

/// `object[key]` when it is a string, else empty.
inline std::string_view string_member(const boost::json::object& object, std::string_view key) noexcept {
  const auto* value = object.if_contains(key);
  return value && value->is_string() ? std::string_view(value->get_string()) : std::string_view();
}

}  // namespace mcp::detail
