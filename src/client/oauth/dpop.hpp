#pragma once
// DPoP (RFC 9449): tokens bound to a key the client holds, each request
// carrying a fresh proof signed with it, so that a stolen token is of no use.

#include "jws.hpp"

#include <string>
#include <string_view>

namespace mcp::detail::oauth {

/// The algorithm of our DPoP keys: ES256 on P-256, which every server that
/// does DPoP supports.
inline constexpr std::string_view dpop_algorithm = "ES256";

/// A proof (section 4.2) for a `method` request to `url`: typ dpop+jwt, the
/// public key as `jwk`; a fresh jti, htm, htu (the URL without query and
/// fragment), iat; `ath` (SHA-256 of the token) when presenting one; the
/// server's `nonce` when it gave one.
std::string make_dpop_proof(const signing_key& key, std::string_view method, std::string_view url,
                            std::string_view access_token = {}, std::string_view nonce = {});

}  // namespace mcp::detail::oauth
