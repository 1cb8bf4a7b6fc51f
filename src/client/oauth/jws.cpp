#include "jws.hpp"

#include "../../detail/jose.hpp"

#include <mcp/base64.hpp>
#include <mcp/client/oauth.hpp>

#include <boost/json/serialize.hpp>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <vector>

namespace mcp::detail::oauth {

namespace {

[[noreturn]] void fail(std::string_view purpose, std::string_view what) {
  throw oauth_error(std::string(purpose) + ": " + std::string(what));
}

std::string big_number(EVP_PKEY* key, const char* name) {
  BIGNUM* n = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &n) != 1) return {};
  std::string bytes(static_cast<std::size_t>(BN_num_bytes(n)), '\0');
  BN_bn2bin(n, reinterpret_cast<unsigned char*>(bytes.data()));
  BN_free(n);
  return bytes;
}

// An EC coordinate, padded to the curve's size (RFC 7518 section 6.2.1.2).
std::string coordinate(EVP_PKEY* key, const char* name) {
  BIGNUM* n = nullptr;
  if (EVP_PKEY_get_bn_param(key, name, &n) != 1) return {};
  std::string bytes(jose::ec_size(key), '\0');
  BN_bn2binpad(n, reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  BN_free(n);
  return bytes;
}

}  // namespace

signing_key::signing_key(EVP_PKEY* key) : key_(key, &EVP_PKEY_free) {}

signing_key signing_key::from_pem(std::string_view pem, std::string_view purpose) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
  EVP_PKEY* key = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
  if (!key) fail(purpose, "the private key is not a PEM private key");
  return signing_key(key);
}

signing_key signing_key::generate_p256() {
  EVP_PKEY* key = EVP_EC_gen("P-256");
  if (!key) throw oauth_error("cannot make a P-256 key");
  return signing_key(key);
}

std::string signing_key::pem() const {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1)
    throw oauth_error("cannot write the private key");
  char* data = nullptr;
  const auto size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

boost::json::object signing_key::public_jwk() const {
  auto* key = key_.get();
  if (EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA)
    return {{"kty", "RSA"},
            {"n", base64url_encode(big_number(key, OSSL_PKEY_PARAM_RSA_N))},
            {"e", base64url_encode(big_number(key, OSSL_PKEY_PARAM_RSA_E))}};
  const auto size = jose::ec_size(key);
  const char* crv = size == 32 ? "P-256" : size == 48 ? "P-384" : "P-521";
  return {{"kty", "EC"},
          {"crv", crv},
          {"x", base64url_encode(coordinate(key, OSSL_PKEY_PARAM_EC_PUB_X))},
          {"y", base64url_encode(coordinate(key, OSSL_PKEY_PARAM_EC_PUB_Y))}};
}

bool signing_key::fits(std::string_view algorithm) const {
  const auto alg = jose::algorithm_of(algorithm);
  return alg && jose::fits(*alg, key_.get());
}

std::string signing_key::sign_jwt(boost::json::object header, const boost::json::object& claims,
                                  std::string_view algorithm, std::string_view purpose) const {
  const auto alg = jose::algorithm_of(algorithm);
  if (!alg) fail(purpose, "unsupported signing algorithm " + std::string(algorithm));
  if (!fits(algorithm)) fail(purpose, "the private key does not fit " + std::string(algorithm));
  header["alg"] = algorithm;
  const auto input = base64url_encode(boost::json::serialize(header)) + "." +
                     base64url_encode(boost::json::serialize(claims));

  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  EVP_PKEY_CTX* pctx = nullptr;
  if (!ctx || EVP_DigestSignInit(ctx.get(), &pctx, alg->digest, nullptr, key_.get()) != 1) fail(purpose, "signing failed");
  if (alg->pss && (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1 ||
                   EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) != 1))
    fail(purpose, "signing failed");
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  if (EVP_DigestSign(ctx.get(), nullptr, &size, data, input.size()) != 1) fail(purpose, "signing failed");
  std::vector<unsigned char> signature(size);
  if (EVP_DigestSign(ctx.get(), signature.data(), &size, data, input.size()) != 1) fail(purpose, "signing failed");
  std::string jws(reinterpret_cast<const char*>(signature.data()), size);
  if (alg->key_type == EVP_PKEY_EC) {
    jws = jose::der_to_jws(jws, alg->ec_size);  // JWS has r || s where OpenSSL makes DER
    if (jws.empty()) fail(purpose, "signing failed");
  }
  return input + "." + base64url_encode(jws);
}

}  // namespace mcp::detail::oauth
