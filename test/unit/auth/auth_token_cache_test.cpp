// The introspection verifier's cache: bounded, least recently used first,
// entries gone at their own expiry, keyed by a hash of the token.

#include "auth/token_cache.hpp"

#include <gtest/gtest.h>

namespace mcp::test {
namespace {

using auth::verification;
using cache = auth::detail::token_cache;

verification valid_for(std::string subject) {
  auth::principal who;
  who.subject = std::move(subject);
  return verification::valid(std::move(who));
}

TEST(AuthTokenCache, FindsWhatWasPutUntilItExpires) {
  cache c(10);
  const auto now = cache::clock::now();
  c.put("token-a", valid_for("alice"), now + std::chrono::seconds(60));
  const auto found = c.find("token-a", now + std::chrono::seconds(59));
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->who.subject, "alice");
  EXPECT_FALSE(c.find("token-b", now).has_value());
  EXPECT_FALSE(c.find("token-a", now + std::chrono::seconds(60)).has_value());
  EXPECT_EQ(c.size(), 0u);  // an expired entry goes when found
}

TEST(AuthTokenCache, TheLeastRecentlyUsedGoesFirst) {
  cache c(2);
  const auto now = cache::clock::now();
  const auto later = now + std::chrono::hours(1);
  c.put("a", valid_for("a"), later);
  c.put("b", valid_for("b"), later);
  EXPECT_TRUE(c.find("a", now).has_value());  // b is now the least recently used
  c.put("c", valid_for("c"), later);
  EXPECT_EQ(c.size(), 2u);
  EXPECT_TRUE(c.find("a", now).has_value());
  EXPECT_FALSE(c.find("b", now).has_value());
  EXPECT_TRUE(c.find("c", now).has_value());
}

TEST(AuthTokenCache, PuttingAgainReplaces) {
  cache c(2);
  const auto now = cache::clock::now();
  c.put("a", valid_for("old"), now + std::chrono::hours(1));
  c.put("a", verification::invalid("revoked"), now + std::chrono::hours(1));
  EXPECT_EQ(c.size(), 1u);
  EXPECT_EQ(c.find("a", now)->result, verification::outcome::invalid);
}

}  // namespace
}  // namespace mcp::test
