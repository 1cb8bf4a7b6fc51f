#pragma once
// Signing keys for the OAuth tests: RSA and EC keys generated at test time
// (cjose over OpenSSL), their public JWKS, and access tokens signed with
// them, including the forged shapes a verifier must refuse.

#include <mcp/base64.hpp>

#include <boost/json.hpp>

#include <cjose/cjose.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp::test {

class test_key {
 public:
  static test_key rsa(std::string kid) {
    static const std::uint8_t e[] = {0x01, 0x00, 0x01};
    cjose_err err;
    return test_key(cjose_jwk_create_RSA_random(2048, e, sizeof e, &err), std::move(kid), "RS256");
  }
  static test_key ec(std::string kid) {
    cjose_err err;
    return test_key(cjose_jwk_create_EC_random(CJOSE_JWK_EC_P_256, &err), std::move(kid), "ES256");
  }

  const std::string& kid() const { return kid_; }
  const std::string& alg() const { return alg_; }

  /// The public key as a JWK (JSON text).
  std::string public_jwk() const {
    cjose_err err;
    char* text = cjose_jwk_to_json(jwk_.get(), false, &err);
    if (!text) throw std::runtime_error("cjose_jwk_to_json failed");
    std::string out(text);
    std::free(text);
    return out;
  }

  /// A compact JWS of `claims` with this key; `alg` defaults to the key's.
  std::string sign(const boost::json::object& claims, std::string typ = "at+jwt", std::string alg = {}) const {
    cjose_err err;
    auto* header = cjose_header_new(&err);
    cjose_header_set(header, CJOSE_HDR_ALG, (alg.empty() ? alg_ : alg).c_str(), &err);
    if (!typ.empty()) cjose_header_set(header, "typ", typ.c_str(), &err);
    cjose_header_set(header, CJOSE_HDR_KID, kid_.c_str(), &err);
    const auto payload = boost::json::serialize(claims);
    auto* jws = cjose_jws_sign(jwk_.get(), header, reinterpret_cast<const std::uint8_t*>(payload.data()),
                               payload.size(), &err);
    cjose_header_release(header);
    if (!jws) throw std::runtime_error(std::string("cjose_jws_sign failed: ") + err.message);
    const char* compact = nullptr;
    cjose_jws_export(jws, &compact, &err);
    std::string out(compact);
    cjose_jws_release(jws);
    return out;
  }

 private:
  test_key(cjose_jwk_t* jwk, std::string kid, std::string alg) : kid_(std::move(kid)), alg_(std::move(alg)) {
    if (!jwk) throw std::runtime_error("cannot generate a key");
    cjose_err err;
    cjose_jwk_set_kid(jwk, kid_.data(), kid_.size(), &err);
    jwk_ = std::shared_ptr<cjose_jwk_t>(jwk, [](cjose_jwk_t* k) { cjose_jwk_release(k); });
  }

  std::shared_ptr<cjose_jwk_t> jwk_;
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
