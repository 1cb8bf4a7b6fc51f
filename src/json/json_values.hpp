#pragma once
// JSON values as JSON Schema sees them: numbers compared by value whatever
// their representation (1 equals 1.0), strings measured in code points, and
// values written out for error messages.

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>

namespace mcp::detail {

/// A JSON number as a long double, which holds every int64, uint64 and double exactly.
inline long double number_value(const boost::json::value& v) noexcept {
  switch (v.kind()) {
    case boost::json::kind::int64: return static_cast<long double>(v.get_int64());
    case boost::json::kind::uint64: return static_cast<long double>(v.get_uint64());
    default: return static_cast<long double>(v.get_double());
  }
}

/// An integer in JSON Schema's sense: a number with no fractional part (3.0 is one).
inline bool is_integral_number(const boost::json::value& v) noexcept {
  if (v.is_int64() || v.is_uint64()) return true;
  if (!v.is_double()) return false;
  const double d = v.get_double();
  return std::isfinite(d) && std::trunc(d) == d;
}

/// Equality as JSON Schema defines it for enum, const and uniqueItems.
inline bool json_equal(const boost::json::value& a, const boost::json::value& b) {
  if (a.is_number() && b.is_number()) return number_value(a) == number_value(b);
  if (a.kind() != b.kind()) return false;
  if (const auto* x = a.if_array()) {
    const auto& y = b.get_array();
    if (x->size() != y.size()) return false;
    for (std::size_t i = 0; i < x->size(); ++i)
      if (!json_equal((*x)[i], y[i])) return false;
    return true;
  }
  if (const auto* x = a.if_object()) {
    const auto& y = b.get_object();
    if (x->size() != y.size()) return false;
    for (const auto& member : *x) {
      const auto* other = y.if_contains(member.key());
      if (other == nullptr || !json_equal(member.value(), *other)) return false;
    }
    return true;
  }
  return a == b;
}

/// 7 for 7 and for 7.0, 0.1 for 0.1: the shortest text that reads back the same.
inline std::string format_number(const boost::json::value& v) {
  if (v.is_int64()) return std::to_string(v.get_int64());
  if (v.is_uint64()) return std::to_string(v.get_uint64());
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v.get_double()).ptr;
  return std::string(buffer, end);
}

/// A value as it appears in a message: JSON text, with numbers written by format_number.
inline std::string format_value(const boost::json::value& v) {
  return v.is_number() ? format_number(v) : boost::json::serialize(v);
}

/// The number of Unicode code points in valid UTF-8 (Boost.JSON's strings are).
inline std::size_t code_point_count(std::string_view text) noexcept {
  std::size_t count = 0;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++count;
  return count;
}

}  // namespace mcp::detail
