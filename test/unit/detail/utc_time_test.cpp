// Times as RFC 3339 in UTC to the millisecond (src/detail/utc_time.hpp): the
// log lines' and the Task object's.

#include "../../src/detail/utc_time.hpp"

#include <gtest/gtest.h>

namespace mcp::detail {
namespace {

using namespace std::chrono;

TEST(UtcTime, WritesTheDateTheTimeAndTheMilliseconds) {
  EXPECT_EQ(utc_time(sys_days{2026y / 11 / 27} + 9h + 5min + 27s + 123ms), "2026-11-27T09:05:27.123Z");
  EXPECT_EQ(utc_time(sys_days{2028y / 2 / 29} + 23h + 59min + 59s + 999ms), "2028-02-29T23:59:59.999Z");
  EXPECT_EQ(utc_time(system_clock::time_point{}), "1970-01-01T00:00:00.000Z");
}

TEST(UtcTime, ATimeBeforeTheEpochCountsBackFromIt) {
  EXPECT_EQ(utc_time(system_clock::time_point{} - 1ms), "1969-12-31T23:59:59.999Z");
}

TEST(UtcTime, DropsWhatIsBelowAMillisecond) {
  EXPECT_EQ(utc_time(sys_days{2026y / 1 / 2} + 3h + 4min + 5s + 6789us), "2026-01-02T03:04:05.006Z");
}

}  // namespace
}  // namespace mcp::detail
