#pragma once
// The HTTP side of bearer tokens (RFC 6750) and of DPoP-bound ones (RFC 9449
// section 7): reading the Authorization header, and writing the
// WWW-Authenticate challenges.

#include <mcp/transport/header_list.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth::detail {

struct bearer_credentials {
  enum class kind {
    absent,     ///< no Authorization header: 401 without an error code
    token,      ///< one well-formed bearer token
    malformed,  ///< not `Bearer <b64token>` (or `DPoP <b64token>`): 400 invalid_request
    several,    ///< more than one Authorization header: 400 invalid_request
    too_long    ///< over the bound: 401 invalid_token
  };
  kind found = kind::absent;
  std::string_view token;  ///< for `token`: a view into the headers
  bool dpop = false;       ///< the scheme was DPoP
};

/// Reads the token of a request's headers: `Bearer`, or `DPoP` when
/// `accept_dpop` (the scheme in any case).
bearer_credentials read_bearer(const header_list& headers, std::size_t max_token_size, bool accept_dpop = false);

/// Whether the URL's query carries an `access_token` parameter (RFC 6750
/// §2.3), which an MCP server must refuse: URLs end up in logs.
bool has_query_token(std::string_view target);

struct challenge {
  std::string scheme = "Bearer";  ///< or "DPoP"
  std::vector<std::string> algs;  ///< DPoP: the proof algorithms taken
  std::string resource_metadata;  ///< absolute URL of the Protected Resource Metadata
  std::vector<std::string> scopes;
  std::string error;        ///< invalid_request, invalid_token, insufficient_scope, or empty
  std::string description;  ///< error_description
};

/// The WWW-Authenticate value: `Bearer resource_metadata="...", scope="...",
/// error="...", error_description="..."` (or `DPoP algs="...", ...`; empty
/// parts left out; quoted strings cleaned of characters RFC 6750 does not
/// allow in them).
std::string www_authenticate(const challenge& c);

}  // namespace mcp::auth::detail
