#pragma once
// Reading the claims of a token (RFC 7519), or of an introspection answer
// (RFC 7662), the same way for both verifiers.

#include <boost/json/object.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::auth::detail {

/// A string member; empty when absent or not a string.
std::string string_claim(const boost::json::object& claims, std::string_view name);

/// A NumericDate member (`exp`, `nbf`, `iat`): seconds, std::nullopt when
/// absent; `malformed` set when present but not a number.
std::optional<std::int64_t> time_claim(const boost::json::object& claims, std::string_view name, bool& malformed);

/// Whether `aud` (a string, or an array of strings) names `audience`.
bool names_audience(const boost::json::object& claims, std::string_view audience);

}  // namespace mcp::auth::detail
