// Session ids (spec: basic/transports, "Session Management"; security best
// practices, "Session Hijacking"): 128 bits from the kernel's CSPRNG, in
// visible ASCII, never the same twice.

#include "detail/random.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace mcp::detail {
namespace {

TEST(SessionId, Is128RandomBitsAsLowerCaseHex) {
  std::set<std::string> seen;
  int ones = 0;
  constexpr int count = 2000;
  for (int i = 0; i < count; ++i) {
    const auto id = random_hex(16);  // what the HTTP server names sessions with
    ASSERT_EQ(id.size(), 32u);
    ASSERT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    seen.insert(id);
    for (const char digit : id) ones += __builtin_popcount(digit <= '9' ? digit - '0' : digit - 'a' + 10);
  }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(count));
  // Half the 256000 bits set, give or take far more than chance allows (sd 253).
  EXPECT_NEAR(ones, count * 64, 3000);
}

}  // namespace
}  // namespace mcp::detail
