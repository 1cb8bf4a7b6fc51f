#pragma once
// Verification outcomes by token, for verifiers that pay a round trip per
// token (introspection): at most `capacity` entries, the least recently used
// going first, each until its own expiry. Keyed by the token's SHA-256, so
// that the cache never holds a usable token.

#include <mcp/auth/token_verifier.hpp>

#include <chrono>
#include <cstddef>
#include <list>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace mcp::auth::detail {

class token_cache {
 public:
  using clock = std::chrono::system_clock;

  explicit token_cache(std::size_t capacity) : capacity_(capacity) {}

  std::optional<verification> find(std::string_view token, clock::time_point now);
  void put(std::string_view token, verification outcome, clock::time_point expires);
  std::size_t size() const noexcept { return entries_.size(); }

 private:
  struct entry {
    std::string key;
    verification outcome;
    clock::time_point expires;
  };
  static std::string key_of(std::string_view token);

  std::size_t capacity_;
  std::list<entry> entries_;  // most recently used first
  std::unordered_map<std::string_view, std::list<entry>::iterator> index_;  // views into the entries' keys
};

}  // namespace mcp::auth::detail
