#include "claims.hpp"

#include <algorithm>
#include <cstdint>

namespace mcp::auth::detail {

std::string string_claim(const boost::json::object& claims, std::string_view name) {
  const auto* v = claims.if_contains(name);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

std::optional<std::int64_t> time_claim(const boost::json::object& claims, std::string_view name, bool& malformed) {
  const auto* v = claims.if_contains(name);
  if (!v) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<std::int64_t>(std::min<std::uint64_t>(v->get_uint64(), INT64_MAX));
  if (v->is_double()) return static_cast<std::int64_t>(v->get_double());
  malformed = true;
  return std::nullopt;
}

bool names_audience(const boost::json::object& claims, std::string_view audience) {
  const auto* aud = claims.if_contains("aud");
  if (!aud) return false;
  if (aud->is_string()) return aud->get_string() == audience;
  return aud->is_array() && std::ranges::any_of(aud->get_array(), [&](const boost::json::value& a) {
           return a.is_string() && a.get_string() == audience;
         });
}

}  // namespace mcp::auth::detail
