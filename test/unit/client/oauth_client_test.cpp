// The pieces of the OAuth client that need no network: reading Bearer
// challenges, the discovery URLs of RFC 9728 and RFC 8414, the resource
// check, form encoding, private_key_jwt assertions, DPoP proofs, and the
// token file.

#include "client/oauth/challenge.hpp"
#include "client/oauth/client_assertion.hpp"
#include "client/oauth/dpop.hpp"
#include "client/oauth/urls.hpp"
#include "detail/random.hpp"

#include <mcp/base64.hpp>
#include <mcp/client/oauth.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>


#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

namespace {

using namespace mcp::detail::oauth;

token_challenge parse_bearer(const std::vector<std::string>& headers) { return parse_challenge(headers, "Bearer"); }

// --- WWW-Authenticate ------------------------------------------------------------

TEST(BearerChallenge, ReadsTheParametersOfTheSpecExample) {
  const auto c = parse_bearer(
      {R"(Bearer error="insufficient_scope", scope="files:read files:write", )"
       R"(resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", )"
       R"(error_description="File write permission required")"});
  EXPECT_TRUE(c.present);
  EXPECT_EQ(c.error, "insufficient_scope");
  EXPECT_EQ(c.scope, "files:read files:write");
  EXPECT_EQ(c.resource_metadata, "https://mcp.example.com/.well-known/oauth-protected-resource");
  EXPECT_EQ(c.error_description, "File write permission required");
}

TEST(BearerChallenge, FindsBearerAfterAnotherSchemeAndInAnyCase) {
  const auto c = parse_bearer({R"(DPoP algs="ES256", scope="x", bearer Scope=mcp:basic, realm="r")"});
  EXPECT_TRUE(c.present);
  EXPECT_EQ(c.scope, "mcp:basic");
}

TEST(BearerChallenge, ReadsADPoPChallengeBesideIt) {
  const std::vector<std::string> both{R"(DPoP error="use_dpop_nonce", algs="ES256", Bearer scope="a")"};
  EXPECT_EQ(parse_challenge(both, "DPoP").error, "use_dpop_nonce");
  EXPECT_EQ(parse_challenge(both, "Bearer").scope, "a");
  EXPECT_FALSE(parse_challenge({R"(Bearer scope="a")"}, "DPoP").present);
}

TEST(BearerChallenge, LooksInEveryHeaderAndUnescapesQuotedText) {
  const auto c = parse_bearer({R"(Basic realm="x")", R"(Bearer error_description="say \"no\"")"});
  EXPECT_TRUE(c.present);
  EXPECT_EQ(c.error_description, R"(say "no")");
}

TEST(BearerChallenge, StopsAtTheNextChallenge) {
  const auto c = parse_bearer({R"(Bearer scope="a", Basic realm="b", scope="c")"});
  EXPECT_EQ(c.scope, "a");
}

TEST(BearerChallenge, NoneWithoutBearerOrForGarbage) {
  EXPECT_FALSE(parse_bearer({}).present);
  EXPECT_FALSE(parse_bearer({R"(Basic realm="x")"}).present);
  EXPECT_FALSE(parse_bearer({"\"\"\",,,=="}).present);
  EXPECT_TRUE(parse_bearer({"Bearer"}).present);
  EXPECT_EQ(parse_bearer({R"(Bearer scope="unterminated)"}).scope, "unterminated");
}

// --- discovery URLs ---------------------------------------------------------------

TEST(DiscoveryUrls, ProtectedResourceMetadataPathFormThenRoot) {
  EXPECT_EQ(protected_resource_metadata_urls("https://Example.com/public/mcp"),
            (std::vector<std::string>{"https://example.com/.well-known/oauth-protected-resource/public/mcp",
                                      "https://example.com/.well-known/oauth-protected-resource"}));
  EXPECT_EQ(protected_resource_metadata_urls("http://127.0.0.1:8080/"),
            (std::vector<std::string>{"http://127.0.0.1:8080/.well-known/oauth-protected-resource"}));
}

TEST(DiscoveryUrls, AuthorizationServerMetadataInTheSpecsOrder) {
  EXPECT_EQ(authorization_server_metadata_urls("https://auth.example.com/tenant1"),
            (std::vector<std::string>{"https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                                      "https://auth.example.com/.well-known/openid-configuration/tenant1",
                                      "https://auth.example.com/tenant1/.well-known/openid-configuration"}));
  EXPECT_EQ(authorization_server_metadata_urls("https://auth.example.com"),
            (std::vector<std::string>{"https://auth.example.com/.well-known/oauth-authorization-server",
                                      "https://auth.example.com/.well-known/openid-configuration"}));
}

TEST(DiscoveryUrls, CanonicalResourceLowersSchemeAndHostAndDropsTheFragment) {
  EXPECT_EQ(canonical_resource("HTTPS://MCP.Example.com/Server/mcp#frag"), "https://mcp.example.com/Server/mcp");
  EXPECT_EQ(canonical_resource("https://mcp.example.com/"), "https://mcp.example.com");
  EXPECT_EQ(canonical_resource("https://mcp.example.com:8443"), "https://mcp.example.com:8443");
  EXPECT_THROW(canonical_resource("mcp.example.com"), mcp::oauth_error);
  EXPECT_THROW(canonical_resource("ftp://mcp.example.com/x"), mcp::oauth_error);
}

TEST(DiscoveryUrls, MetadataCoversTheServerOnlyOnItsOriginAndPath) {
  EXPECT_TRUE(resource_covers("https://a.example/mcp", "https://a.example/mcp"));
  EXPECT_TRUE(resource_covers("https://a.example", "https://a.example/mcp"));
  EXPECT_TRUE(resource_covers("https://a.example/", "https://a.example/mcp"));
  EXPECT_TRUE(resource_covers("https://A.example/team", "https://a.example/team/mcp"));
  EXPECT_FALSE(resource_covers("https://a.example/mcp", "https://a.example/mcp2"));
  EXPECT_FALSE(resource_covers("https://evil.example.com/mcp", "https://a.example/mcp"));
  EXPECT_FALSE(resource_covers("http://a.example/mcp", "https://a.example/mcp"));
  EXPECT_FALSE(resource_covers("https://a.example:444/mcp", "https://a.example/mcp"));
  EXPECT_FALSE(resource_covers("not a url", "https://a.example/mcp"));
}

TEST(DiscoveryUrls, FormEncodingAndQueries) {
  EXPECT_EQ(form_encode({{"scope", "a b"}, {"x", "1+1=2&"}}), "scope=a%20b&x=1%2B1=2%26");
  const auto url = with_query("https://as.example/authorize?tenant=t", {{"scope", "a b"}, {"resource", "https://r/mcp"}});
  const auto query = query_of(url);
  EXPECT_EQ(query.at("tenant"), "t");
  EXPECT_EQ(query.at("scope"), "a b");
  EXPECT_EQ(query.at("resource"), "https://r/mcp");
  EXPECT_EQ(query_of("http://127.0.0.1/cb?code=a%2Bb&iss=https%3A%2F%2Fas").at("code"), "a+b");
  EXPECT_EQ(resolve_reference("https://as.example/a/b", "/cb?x=1"), "https://as.example/cb?x=1");
  EXPECT_EQ(resolve_reference("https://as.example/a/b", "http://127.0.0.1:1/cb"), "http://127.0.0.1:1/cb");
}

TEST(DiscoveryUrls, TellsHttpsAndLoopback) {
  EXPECT_TRUE(is_https("https://as.example/token"));
  EXPECT_FALSE(is_https("http://as.example/token"));
  EXPECT_TRUE(is_loopback("http://127.0.0.1:9/token"));
  EXPECT_TRUE(is_loopback("http://localhost/token"));
  EXPECT_TRUE(is_loopback("http://[::1]:9/token"));
  EXPECT_FALSE(is_loopback("http://128.0.0.1/token"));
}

// --- private_key_jwt ------------------------------------------------------------------

using key_ptr = std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)>;

key_ptr make_key(bool rsa) {
  EVP_PKEY* key = rsa ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256");
  return key_ptr(key, &EVP_PKEY_free);
}

std::string private_pem(EVP_PKEY* key) {
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new(BIO_s_mem()), &BIO_free);
  PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  char* data = nullptr;
  const auto size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

// Verifies the JWS with OpenSSL, turning ES256's r||s back into DER.
bool verifies(const std::string& jwt, EVP_PKEY* key, bool ec) {
  const auto last = jwt.rfind('.');
  const auto input = jwt.substr(0, last);
  auto signature = *mcp::base64url_decode(jwt.substr(last + 1));
  if (ec) {
    ECDSA_SIG* sig = ECDSA_SIG_new();
    const auto* raw = reinterpret_cast<const unsigned char*>(signature.data());
    ECDSA_SIG_set0(sig, BN_bin2bn(raw, 32, nullptr), BN_bin2bn(raw + 32, 32, nullptr));
    unsigned char* der = nullptr;
    const int size = i2d_ECDSA_SIG(sig, &der);
    signature.assign(reinterpret_cast<char*>(der), static_cast<std::size_t>(size));
    OPENSSL_free(der);
    ECDSA_SIG_free(sig);
  }
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  EVP_DigestVerifyInit(ctx.get(), nullptr, EVP_sha256(), nullptr, key);
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                          reinterpret_cast<const unsigned char*>(input.data()), input.size()) == 1;
}

boost::json::object part(const std::string& jwt, int index) {
  std::size_t start = 0;
  for (int i = 0; i < index; ++i) start = jwt.find('.', start) + 1;
  const auto end = jwt.find('.', start);
  return boost::json::parse(*mcp::base64url_decode(jwt.substr(start, end - start))).as_object();
}

TEST(ClientAssertion, Rs256AndEs256SignaturesVerifyWithTheClaimsTheServerChecks) {
  for (const bool rsa : {true, false}) {
    const auto key = make_key(rsa);
    const auto jwt = make_client_assertion("client-1", "https://as.example", private_pem(key.get()),
                                           rsa ? "RS256" : "ES256");
    EXPECT_TRUE(verifies(jwt, key.get(), !rsa)) << (rsa ? "RS256" : "ES256");
    const auto header = part(jwt, 0);
    const auto claims = part(jwt, 1);
    EXPECT_EQ(header.at("alg"), rsa ? "RS256" : "ES256");
    EXPECT_EQ(claims.at("iss"), "client-1");
    EXPECT_EQ(claims.at("sub"), "client-1");
    EXPECT_EQ(claims.at("aud"), "https://as.example");
    EXPECT_GT(claims.at("exp").as_int64(), claims.at("iat").as_int64());
    EXPECT_FALSE(claims.at("jti").as_string().empty());
  }
}

TEST(ClientAssertion, RefusesAKeyThatDoesNotFitOrIsNoKey) {
  const auto rsa = make_key(true);
  EXPECT_THROW(make_client_assertion("c", "a", private_pem(rsa.get()), "ES256"), mcp::oauth_error);
  EXPECT_THROW(make_client_assertion("c", "a", private_pem(rsa.get()), "HS256"), mcp::oauth_error);
  EXPECT_THROW(make_client_assertion("c", "a", "not a key", "RS256"), mcp::oauth_error);
}

// --- DPoP proofs (RFC 9449 section 4.2) -------------------------------------------------------

std::string coordinate(EVP_PKEY* key, const char* name) {
  BIGNUM* n = nullptr;
  EVP_PKEY_get_bn_param(key, name, &n);
  std::string bytes(32, '\0');
  BN_bn2binpad(n, reinterpret_cast<unsigned char*>(bytes.data()), 32);
  BN_free(n);
  return mcp::base64url_encode(bytes);
}

TEST(DpopProof, NamesTheRequestAndTheTokenAndIsSignedByTheKeyItCarries) {
  const auto ec = make_key(false);
  const auto key = signing_key::from_pem(private_pem(ec.get()), "test");
  const auto proof = make_dpop_proof(key, "POST", "https://mcp.example/mcp?session=1#top", "the-token", "n-1");
  EXPECT_TRUE(verifies(proof, ec.get(), true));
  const auto header = part(proof, 0);
  EXPECT_EQ(header.at("typ"), "dpop+jwt");
  EXPECT_EQ(header.at("alg"), "ES256");
  const auto& jwk = header.at("jwk").as_object();
  EXPECT_EQ(jwk.at("kty"), "EC");
  EXPECT_EQ(jwk.at("crv"), "P-256");
  EXPECT_EQ(jwk.at("x").as_string(), coordinate(ec.get(), OSSL_PKEY_PARAM_EC_PUB_X));
  EXPECT_EQ(jwk.at("y").as_string(), coordinate(ec.get(), OSSL_PKEY_PARAM_EC_PUB_Y));
  EXPECT_FALSE(jwk.contains("d")) << "the private key must not travel";

  const auto claims = part(proof, 1);
  EXPECT_EQ(claims.at("htm"), "POST");
  EXPECT_EQ(claims.at("htu"), "https://mcp.example/mcp");
  EXPECT_EQ(claims.at("nonce"), "n-1");
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>("the-token"), 9, digest);
  EXPECT_EQ(claims.at("ath").as_string(), mcp::base64url_encode(std::string_view(reinterpret_cast<char*>(digest), sizeof digest)));
  EXPECT_NE(part(make_dpop_proof(key, "POST", "https://mcp.example/mcp"), 1).at("jti"), claims.at("jti"));

  // At the token endpoint: no token, no nonce yet.
  const auto first = part(make_dpop_proof(key, "POST", "https://as.example/token"), 1);
  EXPECT_FALSE(first.contains("ath"));
  EXPECT_FALSE(first.contains("nonce"));
}

TEST(DpopProof, AGeneratedKeyKeepsThroughItsPem) {
  const auto key = signing_key::generate_p256();
  const auto again = signing_key::from_pem(key.pem(), "test");
  EXPECT_EQ(again.public_jwk(), key.public_jwk());
  EXPECT_TRUE(again.fits("ES256"));
  EXPECT_FALSE(again.fits("ES384"));
  EXPECT_FALSE(again.fits("RS256"));
}

// --- the token file ----------------------------------------------------------------------

TEST(OAuthFileStore, KeepsRecordsInAFileOnlyItsOwnerReads) {
  const auto path = std::filesystem::temp_directory_path() / ("caduceus-oauth-" + mcp::detail::random_hex(8) + ".json");
  std::filesystem::remove(path);
  mcp::oauth_record record;
  record.issuer = "https://as.example";
  record.client_id = "abc";
  record.access_token = "token";
  record.expires_at = 123;
  record.redirect_uris = {"http://127.0.0.1:1/callback"};
  record.dpop_key = "-----BEGIN PRIVATE KEY-----...";
  {
    auto store = mcp::make_file_oauth_store(path.string());
    EXPECT_FALSE(store->load("https://mcp.example/mcp"));
    store->save("https://mcp.example/mcp", record);
  }
#ifndef _WIN32  // (there a DACL, which std::filesystem does not report)
  namespace fs = std::filesystem;
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
#endif
  auto reopened = mcp::make_file_oauth_store(path.string());
  const auto loaded = reopened->load("https://mcp.example/mcp");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->client_id, "abc");
  EXPECT_EQ(loaded->access_token, "token");
  EXPECT_EQ(loaded->expires_at, 123);
  EXPECT_EQ(loaded->redirect_uris, record.redirect_uris);
  EXPECT_EQ(loaded->dpop_key, record.dpop_key);
  reopened->erase("https://mcp.example/mcp");
  EXPECT_FALSE(mcp::make_file_oauth_store(path.string())->load("https://mcp.example/mcp"));
  // A file written before DPoP, without dpop_key.
  std::ofstream(path) << R"({"https://mcp.example/mcp":{"issuer":"i","client_id":"c","client_secret":"",)"
                         R"("token_endpoint_auth_method":"none","registration":"dynamic","redirect_uris":[],)"
                         R"("access_token":"t","token_type":"Bearer","refresh_token":"","scope":"","expires_at":0}})";
  EXPECT_EQ(mcp::make_file_oauth_store(path.string())->load("https://mcp.example/mcp").value().access_token, "t");
  std::ofstream(path) << "not json";
  EXPECT_THROW(mcp::make_file_oauth_store(path.string()), std::runtime_error);
  std::filesystem::remove(path);
}

}  // namespace
