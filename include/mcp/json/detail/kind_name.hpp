#pragma once
// The JSON Schema name of a value's type, for messages such as
// "expected integer, got string". Conversion and validation share it so that
// both report the same words for the same mistake.

#include <boost/json/value.hpp>

#include <string_view>

namespace mcp::detail {

inline std::string_view kind_name(const boost::json::value& v) noexcept {
  switch (v.kind()) {
    case boost::json::kind::null: return "null";
    case boost::json::kind::bool_: return "boolean";
    case boost::json::kind::int64:
    case boost::json::kind::uint64: return "integer";
    case boost::json::kind::double_: return "number";
    case boost::json::kind::string: return "string";
    case boost::json::kind::array: return "array";
    case boost::json::kind::object: return "object";
  }
  return "value";
}

}  // namespace mcp::detail
