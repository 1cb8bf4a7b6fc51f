#pragma once
// JOSE over OpenSSL: what the OAuth client needs to sign a JWS
// (client/oauth/jws.cpp) and what the resource server needs to check one
// (auth/jwt_check.cpp, auth/dpop_proof.cpp, auth/jwks_cache.cpp), in one
// place. The JWS algorithms (RFC 7518 section 3: RS, PS and ES with SHA-2;
// never `none`, never HMAC), ECDSA signatures both ways between OpenSSL's
// DER and JWS's r || s, public JWKs (RSA, EC) made OpenSSL keys, and the
// compact serialization taken apart.
//
// Everything here takes hostile input: it never throws on it, and a failure
// leaves nothing in OpenSSL's error queue.

#include <boost/json/object.hpp>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_md_st EVP_MD;

namespace mcp::detail::jose {

/// A JWS signature algorithm, as OpenSSL does it.
struct algorithm {
  const EVP_MD* digest = nullptr;
  int key_type = 0;         ///< EVP_PKEY_RSA or EVP_PKEY_EC
  bool pss = false;         ///< RSASSA-PSS, its salt as long as the digest
  std::size_t ec_size = 0;  ///< bytes of r and of s in an ES signature (the curve's size)
};

/// RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512; nullopt
/// for any other name (`none`, HS256, EdDSA...).
std::optional<algorithm> algorithm_of(std::string_view alg) noexcept;

/// The size in bytes of an EC key's curve (32 for P-256, 66 for P-521).
std::size_t ec_size(EVP_PKEY* key) noexcept;

/// Whether `key` can sign or verify with `alg`: its type, and for EC its
/// curve (ES256 is P-256, ES384 P-384, ES512 P-521).
bool fits(const algorithm& alg, EVP_PKEY* key) noexcept;

/// An ECDSA signature from OpenSSL's DER to JWS's r || s, each padded to
/// `size` bytes; empty when `der` is not one, or r or s longer than `size`.
std::string der_to_jws(std::string_view der, std::size_t size);
/// The other way; empty unless `jws` is exactly 2 * `size` bytes.
std::string jws_to_der(std::string_view jws, std::size_t size);

using public_key = std::shared_ptr<EVP_PKEY>;

/// Whether every member of `jwk` that holds base64url (n, e, x, y and the
/// private ones) is a string of base64url: unpadded, or padded only to
/// complete its last group, as some issuers write it.
bool well_formed_jwk(const boost::json::object& jwk) noexcept;

/// The public key of a JWK: kty RSA (n, e; a modulus of 2048 to 16384 bits,
/// RFC 7518 section 3.3) or kty EC (crv P-256, P-384 or P-521; x, y a point
/// of that curve). Private members are ignored. Null when it is not one.
public_key import_public_jwk(const boost::json::object& jwk);

/// A JWS in the compact serialization (RFC 7515 section 7.1), decoded.
struct compact_jws {
  boost::json::object header;     ///< the protected header
  std::string payload;            ///< its bytes, not parsed
  std::string_view signing_input; ///< `header.payload` as written: a view of the text decoded
  std::string signature;          ///< its bytes
};

/// Three segments of strict unpadded base64url (the spelling base64url_encode
/// gives), the first a JSON object; nullopt otherwise.
std::optional<compact_jws> decode_compact(std::string_view text);

/// Whether `jws` carries a signature of its signing input by `key` with
/// `alg`; false when the algorithm is none of algorithm_of's or the key
/// does not fit it.
bool verify(const compact_jws& jws, std::string_view alg, EVP_PKEY* key);

}  // namespace mcp::detail::jose
