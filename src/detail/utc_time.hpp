#pragma once
// A time as RFC 3339 in UTC to the millisecond (2026-11-27T09:05:27.123Z):
// the log lines' time and the Task object's createdAt and lastUpdatedAt.
// With <chrono>'s calendar, not gmtime_r, which only POSIX has.

#include <chrono>
#include <string>

namespace mcp::detail {

void append_utc_time(std::string& out, std::chrono::system_clock::time_point time);

inline std::string utc_time(std::chrono::system_clock::time_point time) {
  std::string text;
  append_utc_time(text, time);
  return text;
}

}  // namespace mcp::detail
