#include "client_assertion.hpp"

#include "../../detail/random.hpp"

#include <mcp/base64.hpp>
#include <mcp/client/oauth.hpp>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <openssl/bio.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <chrono>
#include <memory>
#include <vector>

namespace mcp::detail::oauth {

namespace {

struct algorithm_info {
  const EVP_MD* digest;
  int key_type;        // EVP_PKEY_RSA or EVP_PKEY_EC
  bool pss = false;
  std::size_t ec_size = 0;  // bytes of r and of s in a JWS ECDSA signature
};

algorithm_info info_of(std::string_view alg) {
  if (alg == "RS256") return {EVP_sha256(), EVP_PKEY_RSA};
  if (alg == "RS384") return {EVP_sha384(), EVP_PKEY_RSA};
  if (alg == "RS512") return {EVP_sha512(), EVP_PKEY_RSA};
  if (alg == "PS256") return {EVP_sha256(), EVP_PKEY_RSA, true};
  if (alg == "PS384") return {EVP_sha384(), EVP_PKEY_RSA, true};
  if (alg == "PS512") return {EVP_sha512(), EVP_PKEY_RSA, true};
  if (alg == "ES256") return {EVP_sha256(), EVP_PKEY_EC, false, 32};
  if (alg == "ES384") return {EVP_sha384(), EVP_PKEY_EC, false, 48};
  if (alg == "ES512") return {EVP_sha512(), EVP_PKEY_EC, false, 66};
  throw oauth_error("private_key_jwt: unsupported signing algorithm " + std::string(alg));
}

using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

key_ptr read_key(std::string_view pem) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())), &BIO_free);
  key_ptr key(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
  if (!key) throw oauth_error("private_key_jwt: the private key is not a PEM private key");
  return key;
}

// JWS wants ECDSA signatures as r || s, each padded to the curve's size;
// OpenSSL makes DER.
std::string der_to_jws(const std::vector<unsigned char>& der, std::size_t size) {
  const unsigned char* p = der.data();
  std::unique_ptr<ECDSA_SIG, decltype(&ECDSA_SIG_free)> sig(d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size())),
                                                            &ECDSA_SIG_free);
  if (!sig) throw oauth_error("private_key_jwt: signing failed");
  std::string out(2 * size, '\0');
  const BIGNUM* r = ECDSA_SIG_get0_r(sig.get());
  const BIGNUM* s = ECDSA_SIG_get0_s(sig.get());
  BN_bn2binpad(r, reinterpret_cast<unsigned char*>(out.data()), static_cast<int>(size));
  BN_bn2binpad(s, reinterpret_cast<unsigned char*>(out.data() + size), static_cast<int>(size));
  return out;
}

std::string sign(std::string_view input, EVP_PKEY* key, const algorithm_info& alg) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  EVP_PKEY_CTX* pctx = nullptr;
  if (!ctx || EVP_DigestSignInit(ctx.get(), &pctx, alg.digest, nullptr, key) != 1)
    throw oauth_error("private_key_jwt: signing failed");
  if (alg.pss && (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) != 1 ||
                  EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) != 1))
    throw oauth_error("private_key_jwt: signing failed");
  std::size_t size = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(input.data());
  if (EVP_DigestSign(ctx.get(), nullptr, &size, data, input.size()) != 1)
    throw oauth_error("private_key_jwt: signing failed");
  std::vector<unsigned char> signature(size);
  if (EVP_DigestSign(ctx.get(), signature.data(), &size, data, input.size()) != 1)
    throw oauth_error("private_key_jwt: signing failed");
  signature.resize(size);
  if (alg.key_type == EVP_PKEY_EC) return der_to_jws(signature, alg.ec_size);
  return std::string(signature.begin(), signature.end());
}

}  // namespace

std::string make_client_assertion(std::string_view client_id, std::string_view audience,
                                  std::string_view private_key_pem, std::string_view algorithm) {
  const auto alg = info_of(algorithm);
  const auto key = read_key(private_key_pem);
  if (EVP_PKEY_get_base_id(key.get()) != alg.key_type)
    throw oauth_error("private_key_jwt: the private key does not fit " + std::string(algorithm));
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  boost::json::object header{{"alg", algorithm}, {"typ", "JWT"}};
  boost::json::object claims{{"iss", client_id}, {"sub", client_id}, {"aud", audience},
                             {"jti", random_hex(16)}, {"iat", now}, {"exp", now + 300}};
  auto input = base64url_encode(boost::json::serialize(header)) + "." + base64url_encode(boost::json::serialize(claims));
  const auto signature = sign(input, key.get(), alg);
  return input + "." + base64url_encode(signature);
}

}  // namespace mcp::detail::oauth
