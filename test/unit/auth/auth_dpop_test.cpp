// The resource server's DPoP checks (RFC 9449 section 4.3) on proofs made
// by our client's proof maker: the time window, the thumbprint, and the
// bounded memory of used proofs.

#include "auth/dpop_proof.hpp"
#include "client/oauth/dpop.hpp"

#include <mcp/base64.hpp>

#include <gtest/gtest.h>

namespace {

using namespace mcp::auth::detail;
using mcp::detail::oauth::make_dpop_proof;
using mcp::detail::oauth::signing_key;

const std::vector<std::string> algorithms{"ES256", "RS256"};

dpop_expectation expectation(std::string_view url, std::string_view token,
                             std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) {
  dpop_expectation e;
  e.method = "POST";
  e.url = url;
  e.access_token = token;
  e.algorithms = algorithms;
  e.now = now;
  return e;
}

TEST(DpopCheck, AGoodProofGivesItsKeysThumbprint) {
  const auto key = signing_key::generate_p256();
  const auto proof = make_dpop_proof(key, "POST", "https://mcp.example/mcp", "token");
  // Scheme and host in any case, the default port, a query: the same URL.
  const auto checked = check_dpop_proof(proof, expectation("HTTPS://MCP.example:443/mcp?session=1", "token"));
  EXPECT_EQ(checked.error, "");
  EXPECT_EQ(checked.jkt, jwk_thumbprint(key.public_jwk()));
  EXPECT_EQ(checked.jkt.size(), 43u);  // base64url of SHA-256
  EXPECT_FALSE(checked.jti.empty());
}

TEST(DpopCheck, ProofsOutsideTheWindowOrNotAProofAreRefused) {
  const auto key = signing_key::generate_p256();
  const auto proof = make_dpop_proof(key, "POST", "https://mcp.example/mcp", "token");
  const auto now = std::chrono::system_clock::now();
  EXPECT_NE(check_dpop_proof(proof, expectation("https://mcp.example/mcp", "token", now + std::chrono::minutes(6))).error, "");
  EXPECT_NE(check_dpop_proof(proof, expectation("https://mcp.example/mcp", "token", now - std::chrono::minutes(6))).error, "");
  EXPECT_NE(check_dpop_proof("not.a.jwt", expectation("https://mcp.example/mcp", "token")).error, "");
  EXPECT_NE(check_dpop_proof("", expectation("https://mcp.example/mcp", "token")).error, "");
  // An algorithm the server does not take.
  auto only_rsa = expectation("https://mcp.example/mcp", "token");
  const std::vector<std::string> rsa{"RS256"};
  only_rsa.algorithms = rsa;
  EXPECT_NE(check_dpop_proof(proof, only_rsa).error, "");
}

// Found by fuzz/fuzz_auth_headers.cpp when the JOSE library was cjose, which
// aborted the process on base64url with one character before a '='. Kept:
// such input is refused before any decoding (src/detail/jose.hpp).
TEST(DpopCheck, MalformedBase64urlIsRefused) {
  const auto e = expectation("https://mcp.example/mcp", "token");
  EXPECT_EQ(check_dpop_proof("eyJhbGciOiJFUzI1NiJ9.e30.a=", e).error, "the DPoP proof is not a signed JWT");
  EXPECT_EQ(check_dpop_proof("a=.e30.AAAA", e).error, "the DPoP proof is not a signed JWT");
  // A well-formed proof whose jwk member is not base64url.
  const auto header = mcp::base64url_encode(
      R"({"typ":"dpop+jwt","alg":"ES256","jwk":{"kty":"EC","crv":"P-256","x":"a=","y":"AAAA"}})");
  EXPECT_EQ(check_dpop_proof(header + ".e30.AAAA", e).error, "the DPoP proof's jwk is malformed");
}

TEST(DpopCheck, ThumbprintNeedsTheRequiredMembers) {
  EXPECT_EQ(jwk_thumbprint({{"kty", "EC"}, {"crv", "P-256"}, {"x", "a"}}), "");
  EXPECT_EQ(jwk_thumbprint({{"kty", "oct"}, {"k", "secret"}}), "");
  // Extra members do not change it (RFC 7638 section 3.2).
  const auto key = signing_key::generate_p256().public_jwk();
  auto with_extra = key;
  with_extra["kid"] = "k1";
  EXPECT_EQ(jwk_thumbprint(with_extra), jwk_thumbprint(key));
  EXPECT_EQ(bound_key_of({{"cnf", {{"jkt", "abc"}}}}), "abc");
  EXPECT_EQ(bound_key_of({{"cnf", "abc"}}), "");
}

TEST(DpopReplayCache, RemembersWithinTheWindowAndStaysBounded) {
  dpop_replay_cache cache(3);
  EXPECT_TRUE(cache.first_use("a", 100, 0));
  EXPECT_FALSE(cache.first_use("a", 100, 50));
  EXPECT_TRUE(cache.first_use("b", 100, 50));
  // Expired: forgotten, so usable again (its iat is outside the window by then anyway).
  EXPECT_TRUE(cache.first_use("a", 300, 200));
  // Beyond the capacity the oldest goes.
  EXPECT_TRUE(cache.first_use("c", 300, 200));
  EXPECT_TRUE(cache.first_use("d", 300, 200));
  EXPECT_TRUE(cache.first_use("e", 300, 200));
  EXPECT_TRUE(cache.first_use("a", 300, 200)) << "a was the oldest of the full cache";
  EXPECT_FALSE(cache.first_use("e", 300, 200));
}

}  // namespace
