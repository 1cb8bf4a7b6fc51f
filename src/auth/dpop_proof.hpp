#pragma once
// DPoP at the resource server (RFC 9449 sections 4.3 and 7): the proof a
// request carries with a DPoP-bound token, its signature checked with
// OpenSSL (detail/jose.hpp), and a bounded memory of the proofs already used.

#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>

namespace mcp::auth::detail {

/// What a proof must match: the request, and the token it comes with.
struct dpop_expectation {
  std::string_view method;        ///< "POST", "GET"...
  std::string_view url;           ///< the request's absolute URL (query and fragment ignored)
  std::string_view access_token;  ///< `ath` is its SHA-256
  std::span<const std::string> algorithms;  ///< accepted `alg`s (asymmetric ones only count)
  std::chrono::seconds window{300};         ///< how far `iat` may be from now, either way
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

struct dpop_result {
  std::string error;  ///< empty: the proof is good; else why not (for error_description)
  std::string jkt;    ///< the RFC 7638 thumbprint of its key, to match the token's cnf.jkt
  std::string jti;
  std::int64_t iat = 0;
};

/// Checks a proof (section 4.3): a JWS with typ dpop+jwt, an accepted
/// asymmetric alg, a public `jwk` that verifies the signature; jti, htm and
/// htu of this request, iat within the window, ath of the token.
dpop_result check_dpop_proof(std::string_view proof, const dpop_expectation& expected);

/// The `cnf.jkt` of a token's claims (or introspection answer): the
/// thumbprint of the key it is bound to; empty when it is not bound.
std::string bound_key_of(const boost::json::object& claims);

/// The RFC 7638 SHA-256 thumbprint of a public JWK (EC, RSA or OKP),
/// base64url; empty when a required member is missing.
std::string jwk_thumbprint(const boost::json::object& jwk);

/// The `jti`s of the proofs seen within the window (section 11.1): a proof
/// used twice is refused. Bounded: beyond `capacity` the oldest is forgotten.
class dpop_replay_cache {
 public:
  explicit dpop_replay_cache(std::size_t capacity = 100'000) : capacity_(capacity) {}
  /// False when `jti` was seen (and has not expired); records it otherwise.
  bool first_use(const std::string& jti, std::int64_t expires_at, std::int64_t now);

 private:
  std::size_t capacity_;
  std::deque<std::pair<std::int64_t, std::string>> order_;  // expiry, jti: oldest first (within the window)
  std::unordered_set<std::string> seen_;
};

}  // namespace mcp::auth::detail
