// Session ids (spec: basic/transports, "Session Management"; security best
// practices, "Session Hijacking"): 128 bits from the kernel's CSPRNG, in
// visible ASCII, never the same twice.

#include "detail/random.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#ifndef _WIN32  // (no fork there)
#include <sys/wait.h>
#include <unistd.h>
#endif

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

#ifndef _WIN32
// Random bytes are drawn a block at a time per thread: a forked child must
// not hand out the ids its parent hands out next from the block it inherited
// (a pre-forking server sharing a session store).
TEST(SessionId, AForkedChildNamesSessionsOtherThanItsParent) {
  (void)random_hex(16);  // the block is drawn, with ids left in it
  int pipe_ends[2];
  ASSERT_EQ(::pipe(pipe_ends), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const auto id = random_hex(16);
    const auto written = ::write(pipe_ends[1], id.data(), id.size());
    _exit(written == static_cast<ssize_t>(id.size()) ? 0 : 1);
  }
  ::close(pipe_ends[1]);
  const auto ours = random_hex(16);
  std::string theirs(32, '\0');
  std::size_t got = 0;
  while (got < theirs.size()) {
    const auto n = ::read(pipe_ends[0], theirs.data() + got, theirs.size() - got);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(pipe_ends[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_EQ(got, theirs.size());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_NE(theirs, ours);
}
#endif

}  // namespace
}  // namespace mcp::detail
