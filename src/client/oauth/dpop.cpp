#include "dpop.hpp"

#include "../../detail/random.hpp"

#include <mcp/base64.hpp>

#include <openssl/sha.h>

#include <chrono>

namespace mcp::detail::oauth {

std::string make_dpop_proof(const signing_key& key, std::string_view method, std::string_view url,
                            std::string_view access_token, std::string_view nonce) {
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
  boost::json::object claims{{"jti", random_hex(16)},
                             {"htm", method},
                             {"htu", url.substr(0, url.find_first_of("?#"))},
                             {"iat", now}};
  if (!access_token.empty()) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(access_token.data()), access_token.size(), digest);
    claims["ath"] = base64url_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
  }
  if (!nonce.empty()) claims["nonce"] = nonce;
  return key.sign_jwt({{"typ", "dpop+jwt"}, {"jwk", key.public_jwk()}}, claims, dpop_algorithm, "DPoP");
}

}  // namespace mcp::detail::oauth
