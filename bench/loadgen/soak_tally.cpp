#include "soak_tally.hpp"

namespace loadgen {

namespace {
constexpr std::size_t kept_samples = 20;
}

std::uint64_t& soak_tally::count(std::map<std::string, std::uint64_t, std::less<>>& map, std::string_view key) {
  auto it = map.find(key);
  if (it == map.end()) it = map.emplace(std::string(key), 0).first;
  return it->second;
}

void soak_tally::error(std::string_view kind, const std::string& detail) {
  ++count(unexpected, kind);
  if (error_samples.size() < kept_samples) error_samples.push_back(std::string(kind) + ": " + detail);
}

}  // namespace loadgen
