#pragma once
// What a soak run counts: the actions that went as expected, by kind; the
// bad input the server refused as it should, by kind; and every error the
// input did not ask for, by kind, with the first few described. One thread.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace loadgen {

struct soak_tally {
  std::map<std::string, std::uint64_t, std::less<>> done;        ///< actions that went as expected
  std::map<std::string, std::uint64_t, std::less<>> refused;     ///< bad input refused as it should be
  std::map<std::string, std::uint64_t, std::less<>> unexpected;  ///< errors the input did not ask for
  std::vector<std::string> error_samples;                        ///< the first few of those
  std::uint64_t requests = 0;                                    ///< HTTP requests sent

  void ok(std::string_view action) { ++count(done, action); }
  void refused_as_expected(std::string_view kind) { ++count(refused, kind); }
  void error(std::string_view kind, const std::string& detail);

 private:
  static std::uint64_t& count(std::map<std::string, std::uint64_t, std::less<>>& map, std::string_view key);
};

}  // namespace loadgen
