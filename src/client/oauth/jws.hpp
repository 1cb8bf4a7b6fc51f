#pragma once
// JWTs the client signs itself (private_key_jwt assertions, DPoP proofs),
// with OpenSSL: making a JWS needs no JOSE parser.

#include <boost/json/object.hpp>

#include <memory>
#include <string>
#include <string_view>

typedef struct evp_pkey_st EVP_PKEY;

namespace mcp::detail::oauth {

/// A private key (RSA or EC) to sign with.
class signing_key {
 public:
  /// Reads a PEM private key. Throws oauth_error (naming `purpose`) when it is none.
  static signing_key from_pem(std::string_view pem, std::string_view purpose);
  /// A new P-256 key (for ES256).
  static signing_key generate_p256();

  /// The private key as PKCS #8 PEM (to keep it).
  std::string pem() const;
  /// The public key as a JWK (RFC 7517): kty, crv, x, y for EC; kty, n, e for RSA.
  boost::json::object public_jwk() const;
  /// Whether `algorithm` (RS256...ES512) can be used with this key.
  bool fits(std::string_view algorithm) const;
  /// `header.claims.signature`; the header gets `alg`. Throws oauth_error
  /// (naming `purpose`) for an algorithm the key does not fit.
  std::string sign_jwt(boost::json::object header, const boost::json::object& claims, std::string_view algorithm,
                       std::string_view purpose) const;

 private:
  explicit signing_key(EVP_PKEY* key);
  std::shared_ptr<EVP_PKEY> key_;
};

}  // namespace mcp::detail::oauth
