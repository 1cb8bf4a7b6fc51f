#include "cjose_input.hpp"

#include <algorithm>
#include <array>

namespace mcp::auth::detail {

namespace {

bool base64url_char(char c) noexcept {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
}

// The JWK members cjose decodes as base64url (RFC 7518 section 6, RFC 8037).
constexpr std::array<std::string_view, 11> encoded_members = {"n", "e", "d", "p", "q", "dp", "dq", "qi", "x", "y", "k"};

}  // namespace

bool unpadded_base64url(std::string_view text) noexcept {
  return text.size() % 4 != 1 && std::ranges::all_of(text, base64url_char);
}

bool compact_jws(std::string_view token) noexcept {
  for (int segment = 0; segment < 3; ++segment) {
    const auto dot = token.find('.');
    if ((dot == std::string_view::npos) != (segment == 2)) return false;
    if (!unpadded_base64url(token.substr(0, dot))) return false;
    token.remove_prefix(dot == std::string_view::npos ? token.size() : dot + 1);
  }
  return true;
}

bool importable_jwk(const boost::json::object& jwk) noexcept {
  for (const auto member : encoded_members) {
    const auto* value = jwk.if_contains(member);
    if (!value) continue;
    const auto* text = value->if_string();
    if (!text) return false;
    std::string_view encoded(*text);
    // Padding, which RFC 7518 leaves out but some issuers write, only completes a group.
    const auto padded = encoded.find('=');
    if (padded != std::string_view::npos) {
      if (encoded.size() % 4 != 0 || encoded.size() - padded > 2 ||
          encoded.find_first_not_of('=', padded) != std::string_view::npos)
        return false;
      encoded = encoded.substr(0, padded);
    }
    if (!unpadded_base64url(encoded)) return false;
  }
  return true;
}

}  // namespace mcp::auth::detail
