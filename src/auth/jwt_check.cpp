// jwt_check.hpp: the signature with OpenSSL (detail/jose.hpp; the header,
// the algorithm allow-list and the key's type checked first), then the
// claims with Boost.JSON.

#include "jwt_check.hpp"

#include "claims.hpp"

#include "../detail/jose.hpp"

#include <boost/json/parse.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>

namespace mcp::auth::detail {

namespace json = boost::json;
namespace jose = mcp::detail::jose;
using std::chrono::system_clock;

namespace {

// A header member that is a string; empty when absent or not one.
std::string header_value(const json::object& header, std::string_view name) {
  const auto* value = header.if_contains(name);
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The JWK key type an algorithm needs; empty for algorithms never accepted.
std::string_view key_type_of(std::string_view alg) {
  const auto known = jose::algorithm_of(alg);
  if (!known) return {};
  return known->key_type == EVP_PKEY_RSA ? "RSA" : "EC";
}

}  // namespace

verification check_claims(const json::object& claims, const jwt_verifier_options& options,
                          system_clock::time_point now) {
  if (string_claim(claims, "iss") != options.issuer) return verification::invalid("the token is from another issuer");
  if (!names_audience(claims, options.audience)) return verification::invalid("the token is not for this resource");
  bool malformed = false;
  const auto exp = time_claim(claims, "exp", malformed);
  const auto nbf = time_claim(claims, "nbf", malformed);
  const auto iat = time_claim(claims, "iat", malformed);
  if (malformed) return verification::invalid("the token's times are not numbers");
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  const auto leeway = options.leeway.count();
  if (!exp) return verification::invalid("the token has no expiry");
  if (*exp + leeway <= seconds) return verification::invalid("the token has expired");
  if (nbf && *nbf - leeway > seconds) return verification::invalid("the token is not valid yet");
  if (iat && *iat - leeway > seconds) return verification::invalid("the token is issued in the future");

  principal who;
  who.issuer = options.issuer;
  who.subject = string_claim(claims, "sub");
  who.client_id = string_claim(claims, "client_id");
  if (who.client_id.empty()) who.client_id = string_claim(claims, "azp");
  if (who.subject.empty() && who.client_id.empty())
    return verification::invalid("the token names neither a subject nor a client");
  if (const auto* scope = claims.if_contains("scope"); scope && scope->is_string())
    who.scopes = split_scopes(scope->get_string());
  else if (const auto* scp = claims.if_contains("scp"); scp && scp->is_array())
    for (const auto& s : scp->get_array())
      if (s.is_string()) who.scopes.emplace_back(s.get_string());
  who.expiry = system_clock::time_point(std::chrono::seconds(*exp));
  who.claims = claims;
  return verification::valid(std::move(who));
}

jwt_checker::jwt_checker(jwt_verifier_options options, std::shared_ptr<jwks_cache> keys)
    : options_(std::move(options)), keys_(std::move(keys)) {}

asio::awaitable<verification> jwt_checker::verify(std::string token) {
  const auto jws = jose::decode_compact(token);
  if (!jws) co_return verification::invalid("the token is not a signed JWT");
  const auto alg = header_value(jws->header, "alg");
  const auto kty = key_type_of(alg);
  // `none` and HMAC have no key type here: never accepted, whatever the options say.
  if (kty.empty() || std::ranges::find(options_.algorithms, alg) == options_.algorithms.end())
    co_return verification::invalid("the token's algorithm is not accepted");
  const auto typ = lower(header_value(jws->header, "typ"));
  const bool access_token = typ == "at+jwt" || typ == "application/at+jwt";
  if (!access_token && !(options_.accept_plain_jwt && (typ.empty() || typ == "jwt")))
    co_return verification::invalid("the token is not an access token (typ at+jwt)");

  const auto kid = header_value(jws->header, "kid");
  const auto found = co_await keys_->keys_for(kid);
  bool key_known = false;
  bool verified = false;
  if (found.keys)
    for (const auto& key : *found.keys) {
      if ((!kid.empty() && key.kid != kid) || key.kty != kty || (!key.alg.empty() && key.alg != alg)) continue;
      key_known = true;
      if (jose::verify(*jws, alg, key.public_key.get())) {
        verified = true;
        break;
      }
    }
  if (!verified) {
    if (!key_known && found.unavailable)
      co_return verification::unavailable("the authorization server's keys cannot be fetched", options_.retry_after);
    co_return verification::invalid(key_known ? "the token's signature does not verify"
                                              : "the token's signing key is unknown");
  }
  if (jws->payload.empty()) co_return verification::invalid("the token has no payload");
  boost::system::error_code ec;
  auto claims = json::parse(jws->payload, ec);
  if (ec || !claims.is_object()) co_return verification::invalid("the token's claims are not a JSON object");
  co_return check_claims(claims.get_object(), options_, system_clock::now());
}

}  // namespace mcp::auth::detail
