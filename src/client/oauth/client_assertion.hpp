#pragma once
// private_key_jwt (RFC 7523 section 2.2, OpenID Connect Core section 9): a
// short-lived JWT the client signs with its private key to authenticate at
// the token endpoint. Signed with OpenSSL; no JOSE library needed to make one.

#include <string>
#include <string_view>

namespace mcp::detail::oauth {

/// A JWT with iss = sub = `client_id`, aud = `audience`, a fresh jti, iat
/// and a 5-minute exp, signed with `private_key_pem` (RSA or EC) by
/// `algorithm` (RS256/384/512, PS256/384/512, ES256/384/512). Throws
/// oauth_error when the key cannot be read or does not fit the algorithm.
std::string make_client_assertion(std::string_view client_id, std::string_view audience,
                                  std::string_view private_key_pem, std::string_view algorithm);

}  // namespace mcp::detail::oauth
