// dpop_proof.hpp: RFC 9449 section 4.3's checks, the signature with OpenSSL
// (detail/jose.hpp).

#include "dpop_proof.hpp"

#include "../detail/jose.hpp"

#include <mcp/base64.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace mcp::auth::detail {

namespace json = boost::json;
namespace jose = mcp::detail::jose;

namespace {

std::string sha256_base64url(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

// A header member that is a string; empty when absent or not one.
std::string header_string(const json::object& header, std::string_view name) {
  const auto* value = header.if_contains(name);
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

// RFC 3986 section 6.2.2-6.2.3: scheme and host in any case, the default
// port, an empty path as "/"; the query and fragment left out (RFC 9449
// section 4.3, check 9).
std::string normalized(std::string_view url) {
  auto parsed = boost::urls::parse_uri_reference(url);
  if (!parsed || !parsed->has_scheme()) return {};
  std::string scheme(parsed->scheme());
  std::ranges::transform(scheme, scheme.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  std::string host(parsed->encoded_host());
  std::ranges::transform(host, host.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  std::string port(parsed->port());
  if ((scheme == "https" && port == "443") || (scheme == "http" && port == "80")) port.clear();
  std::string path(parsed->encoded_path());
  if (path.empty()) path = "/";
  return scheme + "://" + host + (port.empty() ? "" : ":" + port) + path;
}

}  // namespace

std::string bound_key_of(const json::object& claims) {
  const auto* cnf = claims.if_contains("cnf");
  const auto* jkt = cnf && cnf->is_object() ? cnf->get_object().if_contains("jkt") : nullptr;
  return jkt && jkt->is_string() ? std::string(jkt->get_string()) : std::string();
}

std::string jwk_thumbprint(const json::object& jwk) {
  // RFC 7638 section 3.2: the required members only, in lexicographic order,
  // no whitespace (json::object keeps the order they are inserted in).
  const auto* kty = jwk.if_contains("kty");
  if (!kty || !kty->is_string()) return {};
  std::vector<const char*> members;
  if (kty->get_string() == "EC") members = {"crv", "kty", "x", "y"};
  else if (kty->get_string() == "RSA") members = {"e", "kty", "n"};
  else if (kty->get_string() == "OKP") members = {"crv", "kty", "x"};
  else return {};
  json::object canonical;
  for (const char* name : members) {
    const auto* value = jwk.if_contains(name);
    if (!value || !value->is_string()) return {};
    canonical[name] = *value;
  }
  return sha256_base64url(json::serialize(canonical));
}

dpop_result check_dpop_proof(std::string_view proof, const dpop_expectation& expected) {
  dpop_result result;
  const auto fail = [&result](std::string why) {
    result.error = std::move(why);
    return result;
  };
  const auto jws = jose::decode_compact(proof);
  if (!jws) return fail("the DPoP proof is not a signed JWT");
  if (header_string(jws->header, "typ") != "dpop+jwt") return fail("the DPoP proof's typ is not dpop+jwt");
  // Asymmetric algorithms only (section 4.3, check 5): algorithm_of knows no other.
  const auto alg = header_string(jws->header, "alg");
  if (!jose::algorithm_of(alg) || std::ranges::find(expected.algorithms, alg) == expected.algorithms.end())
    return fail("the DPoP proof's algorithm is not accepted");
  const auto* member = jws->header.if_contains("jwk");
  if (!member) return fail("the DPoP proof has no jwk");
  if (!member->is_object()) return fail("the DPoP proof's jwk is not a JSON object");
  const auto& jwk = member->get_object();
  // A private key in the header: the client gave its key away (section 4.3, check 7).
  if (jwk.contains("d") || jwk.contains("p")) return fail("the DPoP proof's jwk is private");
  if (!jose::well_formed_jwk(jwk)) return fail("the DPoP proof's jwk is malformed");
  const auto key = jose::import_public_jwk(jwk);
  if (!key || !jose::verify(*jws, alg, key.get())) return fail("the DPoP proof's signature does not verify");
  result.jkt = jwk_thumbprint(jwk);
  if (result.jkt.empty()) return fail("the DPoP proof's jwk lacks members");

  if (jws->payload.empty()) return fail("the DPoP proof has no claims");
  boost::system::error_code ec;
  const auto parsed = json::parse(jws->payload, ec);
  if (ec || !parsed.is_object()) return fail("the DPoP proof's claims are not a JSON object");
  const auto& claims = parsed.get_object();
  const auto text = [&claims](std::string_view name) {
    const auto* v = claims.if_contains(name);
    return v && v->is_string() ? std::string(v->get_string()) : std::string();
  };
  result.jti = text("jti");
  if (result.jti.empty() || result.jti.size() > 256) return fail("the DPoP proof has no usable jti");
  if (text("htm") != expected.method) return fail("the DPoP proof is for another method");
  const auto htu = text("htu");
  if (htu.empty() || normalized(htu) != normalized(expected.url)) return fail("the DPoP proof is for another URL");
  const auto* iat = claims.if_contains("iat");
  if (!iat || !iat->is_number()) return fail("the DPoP proof has no iat");
  result.iat = iat->is_double() ? static_cast<std::int64_t>(iat->get_double()) : iat->to_number<std::int64_t>();
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(expected.now.time_since_epoch()).count();
  if (result.iat > now + expected.window.count() || result.iat < now - expected.window.count())
    return fail("the DPoP proof is too old or from the future");
  if (text("ath") != sha256_base64url(expected.access_token)) return fail("the DPoP proof is for another token");
  return result;
}

bool dpop_replay_cache::first_use(const std::string& jti, std::int64_t expires_at, std::int64_t now) {
  while (!order_.empty() && (order_.front().first < now || order_.size() >= capacity_)) {
    seen_.erase(order_.front().second);
    order_.pop_front();
  }
  if (!seen_.insert(jti).second) return false;
  // Proofs come in roughly iat order, so the front stays the oldest.
  order_.emplace_back(expires_at, jti);
  return true;
}

}  // namespace mcp::auth::detail
