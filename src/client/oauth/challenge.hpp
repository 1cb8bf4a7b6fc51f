#pragma once
// The Bearer or DPoP challenge of a WWW-Authenticate header (RFC 6750
// section 3, RFC 9449 section 7.1, RFC 9728 section 5.1): where the resource
// metadata is, the scopes needed, and why the token was refused.

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail::oauth {

struct token_challenge {
  bool present = false;  ///< a challenge of the scheme was found
  std::string resource_metadata;
  std::string scope;
  std::string error;
  std::string error_description;
};

/// The first challenge of `scheme` ("Bearer", "DPoP") among the values of
/// every WWW-Authenticate header (a value may hold several challenges:
/// `DPoP ..., Bearer ...`). Parameter names and the scheme are matched in
/// any case; quoted values are unescaped. Malformed text yields what could
/// be read before it.
token_challenge parse_challenge(const std::vector<std::string>& headers, std::string_view scheme);

}  // namespace mcp::detail::oauth
