// The HTTP side of bearer tokens: reading Authorization headers (RFC 6750
// §2.1), refusing query-string tokens, writing WWW-Authenticate challenges
// (§3, RFC 9728 §5.1), and the principal's scope matching.

#include "auth/bearer.hpp"
#include "auth/issuer_metadata.hpp"

#include <mcp/auth/principal.hpp>
#include <mcp/error.hpp>

#include <gtest/gtest.h>

namespace mcp::test {
namespace {

using auth::detail::bearer_credentials;
using kind = bearer_credentials::kind;

bearer_credentials read(std::initializer_list<std::pair<const char*, const char*>> headers,
                        std::size_t limit = 16 * 1024) {
  static header_list list;  // the views point into it
  list = header_list();
  for (const auto& [name, value] : headers) list.add(name, value);
  return auth::detail::read_bearer(list, limit);
}

TEST(AuthBearer, ReadsOneBearerTokenInAnyCaseOfTheScheme) {
  for (const char* value : {"Bearer abc.DEF-_~+/=", "bearer abc.DEF-_~+/=", "BEARER   abc.DEF-_~+/=  "}) {
    const auto c = read({{"authorization", value}});
    EXPECT_EQ(c.found, kind::token) << value;
    EXPECT_EQ(c.token, "abc.DEF-_~+/=") << value;
  }
}

TEST(AuthBearer, NoHeaderIsAbsent) { EXPECT_EQ(read({{"accept", "*/*"}}).found, kind::absent); }

TEST(AuthBearer, MalformedHeadersAreMalformed) {
  for (const char* value : {"Basic dXNlcjpwYXNz", "Bearer", "Bearer ", "Bearer a b", "Bearer a,b", "Bearertoken",
                            "Bearer \"quoted\"", "Bearer ==="})
    EXPECT_EQ(read({{"authorization", value}}).found, kind::malformed) << value;
}

TEST(AuthBearer, SeveralHeadersAreRefused) {
  EXPECT_EQ(read({{"authorization", "Bearer a"}, {"authorization", "Bearer b"}}).found, kind::several);
}

TEST(AuthBearer, AHugeTokenIsTooLong) {
  const std::string value = "Bearer " + std::string(100, 'a');
  EXPECT_EQ(read({{"authorization", value.c_str()}}, 99).found, kind::too_long);
  EXPECT_EQ(read({{"authorization", value.c_str()}}, 100).found, kind::token);
}

TEST(AuthBearer, QueryStringTokensAreFound) {
  EXPECT_TRUE(auth::detail::has_query_token("/mcp?access_token=abc"));
  EXPECT_TRUE(auth::detail::has_query_token("/messages?sessionId=1&access_token=abc"));
  EXPECT_FALSE(auth::detail::has_query_token("/messages?sessionId=1"));
  EXPECT_FALSE(auth::detail::has_query_token("/mcp"));
}

TEST(AuthBearer, ChallengeWithoutError) {
  auth::detail::challenge c;
  c.resource_metadata = "https://mcp.example/.well-known/oauth-protected-resource/mcp";
  c.scopes = {"mcp:read", "mcp:write"};
  EXPECT_EQ(auth::detail::www_authenticate(c),
            "Bearer resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource/mcp\", "
            "scope=\"mcp:read mcp:write\"");
}

TEST(AuthBearer, ChallengeWithErrorAndACleanedDescription) {
  auth::detail::challenge c;
  c.resource_metadata = "https://m/.well-known/oauth-protected-resource";
  c.error = "invalid_token";
  c.description = "bad \"token\"\\\n";
  EXPECT_EQ(auth::detail::www_authenticate(c),
            "Bearer error=\"invalid_token\", error_description=\"bad token\", "
            "resource_metadata=\"https://m/.well-known/oauth-protected-resource\"");
}

TEST(AuthPrincipal, IdentityAndScopes) {
  auth::principal p;
  p.issuer = "https://as";
  p.subject = "alice";
  p.scopes = auth::split_scopes("  read  write ");
  EXPECT_EQ(p.scopes, (std::vector<std::string>{"read", "write"}));
  EXPECT_EQ(p.identity(), "https://as alice");
  p.subject.clear();
  p.client_id = "robot";
  EXPECT_EQ(p.identity(), "https://as client:robot");
  EXPECT_TRUE(p.has_scope("read"));
  EXPECT_FALSE(p.has_scope("admin:read"));
  p.implies = [](std::string_view granted, std::string_view required) {
    return granted == "write" && required == "admin:read";
  };
  EXPECT_TRUE(p.has_scope("admin:read"));
  const std::vector<std::string> needed{"read", "delete"};
  EXPECT_EQ(p.missing_scopes(needed), std::vector<std::string>{"delete"});
}

TEST(AuthIssuerMetadata, WellKnownUrlsInOrder) {
  EXPECT_EQ(auth::detail::metadata_urls("https://as.example"),
            (std::vector<std::string>{"https://as.example/.well-known/oauth-authorization-server",
                                      "https://as.example/.well-known/openid-configuration"}));
  EXPECT_EQ(auth::detail::metadata_urls("https://as.example/tenant/1/"),
            (std::vector<std::string>{"https://as.example/.well-known/oauth-authorization-server/tenant/1",
                                      "https://as.example/.well-known/openid-configuration/tenant/1",
                                      "https://as.example/tenant/1/.well-known/openid-configuration"}));
  EXPECT_THROW(auth::detail::require_secure_url("http://as.example", false, "the issuer"), mcp::invalid_argument);
  EXPECT_NO_THROW(auth::detail::require_secure_url("http://127.0.0.1:1", true, "the issuer"));
}

}  // namespace
}  // namespace mcp::test
