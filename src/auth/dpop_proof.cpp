// dpop_proof.hpp: RFC 9449 section 4.3's checks, the signature by cjose.

#include "dpop_proof.hpp"

#include "cjose_input.hpp"

#include <mcp/base64.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <cjose/cjose.h>
#include <openssl/sha.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

namespace mcp::auth::detail {

namespace json = boost::json;

namespace {

struct jws_deleter {
  void operator()(cjose_jws_t* jws) const noexcept { cjose_jws_release(jws); }
};
struct jwk_deleter {
  void operator()(cjose_jwk_t* jwk) const noexcept { cjose_jwk_release(jwk); }
};

std::string sha256_base64url(std::string_view text) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string header_string(cjose_header_t* header, const char* name) {
  cjose_err err;
  const char* value = cjose_header_get(header, name, &err);
  return value ? std::string(value) : std::string();
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

bool asymmetric(std::string_view alg) {
  return alg.starts_with("RS") || alg.starts_with("PS") || alg.starts_with("ES") || alg == "EdDSA";
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
  if (!compact_jws(proof)) return fail("the DPoP proof is not a signed JWT");
  cjose_err err;
  std::unique_ptr<cjose_jws_t, jws_deleter> jws(cjose_jws_import(proof.data(), proof.size(), &err));
  if (!jws) return fail("the DPoP proof is not a signed JWT");
  auto* header = cjose_jws_get_protected(jws.get());
  if (header_string(header, "typ") != "dpop+jwt") return fail("the DPoP proof's typ is not dpop+jwt");
  const auto alg = header_string(header, CJOSE_HDR_ALG);
  if (!asymmetric(alg) || std::ranges::find(expected.algorithms, alg) == expected.algorithms.end())
    return fail("the DPoP proof's algorithm is not accepted");
  std::unique_ptr<char, decltype(&std::free)> raw_jwk(cjose_header_get_raw(header, "jwk", &err), &std::free);
  if (!raw_jwk) return fail("the DPoP proof has no jwk");
  boost::system::error_code ec;
  const auto jwk = json::parse(raw_jwk.get(), ec);
  if (ec || !jwk.is_object()) return fail("the DPoP proof's jwk is not a JSON object");
  // A private key in the header: the client gave its key away (section 4.3, check 7).
  if (jwk.get_object().contains("d") || jwk.get_object().contains("p")) return fail("the DPoP proof's jwk is private");
  if (!importable_jwk(jwk.get_object())) return fail("the DPoP proof's jwk is malformed");
  std::unique_ptr<cjose_jwk_t, jwk_deleter> key(cjose_jwk_import(raw_jwk.get(), std::strlen(raw_jwk.get()), &err));
  if (!key || !cjose_jws_verify(jws.get(), key.get(), &err)) return fail("the DPoP proof's signature does not verify");
  result.jkt = jwk_thumbprint(jwk.get_object());
  if (result.jkt.empty()) return fail("the DPoP proof's jwk lacks members");

  std::uint8_t* payload = nullptr;
  std::size_t payload_size = 0;
  if (!cjose_jws_get_plaintext(jws.get(), &payload, &payload_size, &err)) return fail("the DPoP proof has no claims");
  const auto parsed = json::parse(std::string_view(reinterpret_cast<const char*>(payload), payload_size), ec);
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
