#pragma once
// Signing keys for the OAuth tests: RSA and EC keys generated at test time
// (the library's own signer, client/oauth/jws.hpp, over OpenSSL), their
// public JWKS, and access tokens signed with them, including the forged
// shapes a verifier must refuse.

#include "client/oauth/jws.hpp"

#include <mcp/base64.hpp>

#include <boost/json.hpp>

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp::test {

/// A new RSA key of `bits` bits, to sign with.
inline ::mcp::detail::oauth::signing_key rsa_signing_key(int bits = 2048) {
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(EVP_RSA_gen(static_cast<unsigned>(bits)), &EVP_PKEY_free);
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  if (!key || !bio || PEM_write_bio_PrivateKey(bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throw std::runtime_error("cannot generate an RSA key");
  char* data = nullptr;
  const auto size = BIO_get_mem_data(bio.get(), &data);
  return ::mcp::detail::oauth::signing_key::from_pem(std::string_view(data, static_cast<std::size_t>(size)), "test");
}

class test_key {
  using signing_key = ::mcp::detail::oauth::signing_key;

 public:
  static test_key rsa(std::string kid) { return test_key(rsa_signing_key(2048), std::move(kid), "RS256"); }
  static test_key ec(std::string kid) { return test_key(signing_key::generate_p256(), std::move(kid), "ES256"); }

  const std::string& kid() const { return kid_; }
  const std::string& alg() const { return alg_; }

  /// The public key as a JWK (JSON text), with its kid.
  std::string public_jwk() const {
    auto jwk = key_.public_jwk();
    jwk["kid"] = kid_;
    return boost::json::serialize(jwk);
  }

  /// A compact JWS of `claims` with this key; `alg` defaults to the key's.
  std::string sign(const boost::json::object& claims, std::string typ = "at+jwt", std::string alg = {}) const {
    boost::json::object header;
    if (!typ.empty()) header["typ"] = typ;
    header["kid"] = kid_;
    return key_.sign_jwt(std::move(header), claims, alg.empty() ? alg_ : alg, "test token");
  }

 private:
  test_key(signing_key key, std::string kid, std::string alg)
      : key_(std::move(key)), kid_(std::move(kid)), alg_(std::move(alg)) {}

  signing_key key_;
  std::string kid_;
  std::string alg_;
};

/// A JWKS document with these keys' public halves.
inline std::string jwks_of(const std::vector<const test_key*>& keys) {
  boost::json::array list;
  for (const auto* k : keys) list.push_back(boost::json::parse(k->public_jwk()));
  return boost::json::serialize(boost::json::object{{"keys", std::move(list)}});
}

/// Access-token claims: valid for `lifetime` from now (negative: expired).
inline boost::json::object token_claims(const std::string& issuer, const std::string& audience,
                                        const std::string& scope = "mcp:read",
                                        std::chrono::seconds lifetime = std::chrono::seconds(300)) {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  return boost::json::object{{"iss", issuer},        {"aud", audience}, {"sub", "user-1"},
                             {"client_id", "client-1"}, {"scope", scope}, {"iat", now},
                             {"exp", now + lifetime.count()}, {"jti", std::to_string(now) + "-" + std::to_string(std::rand())}};
}

/// An unsigned token (`alg: none`), as an attacker would send it.
inline std::string unsigned_token(const boost::json::object& claims) {
  const auto header = boost::json::serialize(boost::json::object{{"alg", "none"}, {"typ", "at+jwt"}});
  return base64url_encode(header) + "." + base64url_encode(boost::json::serialize(claims)) + ".";
}

/// An HS256 token whose HMAC key is the public JWK's text: the "algorithm
/// confusion" forgery against verifiers that let the token pick the algorithm.
inline std::string hmac_forgery(const test_key& key, const boost::json::object& claims) {
  const auto header =
      boost::json::serialize(boost::json::object{{"alg", "HS256"}, {"typ", "at+jwt"}, {"kid", key.kid()}});
  const auto input = base64url_encode(header) + "." + base64url_encode(boost::json::serialize(claims));
  const auto secret = key.public_jwk();
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &size);
  return input + "." + base64url_encode(std::string(reinterpret_cast<const char*>(mac), size));
}

/// The token with its payload replaced by `claims`, signature kept.
inline std::string tampered(const std::string& token, const boost::json::object& claims) {
  const auto first = token.find('.');
  const auto second = token.find('.', first + 1);
  return token.substr(0, first + 1) + base64url_encode(boost::json::serialize(claims)) + token.substr(second);
}

}  // namespace mcp::test
