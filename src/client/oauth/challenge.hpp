#pragma once
// The Bearer challenge of a WWW-Authenticate header (RFC 6750 section 3,
// RFC 9728 section 5.1): where the resource metadata is, the scopes needed,
// and why the token was refused.

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail::oauth {

struct bearer_challenge {
  bool present = false;  ///< a Bearer challenge was found
  std::string resource_metadata;
  std::string scope;
  std::string error;
  std::string error_description;
};

/// The first Bearer challenge among the values of every WWW-Authenticate
/// header (a value may hold several challenges: `DPoP ..., Bearer ...`).
/// Parameter names and the scheme are matched in any case; quoted values
/// are unescaped. Malformed text yields what could be read before it.
bearer_challenge parse_bearer_challenge(const std::vector<std::string>& headers);

}  // namespace mcp::detail::oauth
