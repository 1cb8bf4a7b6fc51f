#include "utc_time.hpp"

#include <cstdio>

namespace mcp::detail {

void append_utc_time(std::string& out, std::chrono::system_clock::time_point time) {
  using namespace std::chrono;
  const auto ms = floor<milliseconds>(time);
  const auto day = floor<days>(ms);
  const year_month_day date(day);
  const hh_mm_ss of_day(ms - day);
  char buffer[40];
  const auto n = std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02d.%03dZ",
                               static_cast<int>(date.year()), static_cast<unsigned>(date.month()),
                               static_cast<unsigned>(date.day()),
                               static_cast<int>(of_day.hours().count()), static_cast<int>(of_day.minutes().count()),
                               static_cast<int>(of_day.seconds().count()),
                               static_cast<int>(of_day.subseconds().count()));
  out.append(buffer, static_cast<std::size_t>(n));
}

}  // namespace mcp::detail
