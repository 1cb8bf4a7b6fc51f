#pragma once
// What may be handed to cjose. Debian's cjose 0.6 aborts the process (an
// assert in its Base64 decoder, `shift != 1`) on base64url text whose last
// group holds one character before a '=': `Bearer eyJhbGciOiJFUzI1NiJ9.e30.a=`
// would end a server. So every token, proof and key from the network is
// checked here first (found by fuzz/fuzz_auth_headers.cpp).

#include <boost/json/object.hpp>

#include <string_view>

namespace mcp::auth::detail {

/// Whether `text` is unpadded base64url (RFC 7515 section 2) of a length
/// that encodes whole bytes.
bool unpadded_base64url(std::string_view text) noexcept;

/// Whether `token` is a JWS in the compact serialization: three segments
/// of unpadded base64url.
bool compact_jws(std::string_view token) noexcept;

/// Whether every string member of a JWK is safe for cjose's key import:
/// base64url (padding tolerated at the end of a whole group), or not
/// decoded by cjose at all (kty, kid, alg, use, crv...).
bool importable_jwk(const boost::json::object& jwk) noexcept;

}  // namespace mcp::auth::detail
