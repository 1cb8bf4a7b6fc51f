// token_cache.hpp

#include "token_cache.hpp"

#include <openssl/evp.h>

#include <stdexcept>

namespace mcp::auth::detail {

std::string token_cache::key_of(std::string_view token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  if (EVP_Digest(token.data(), token.size(), digest, &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 failed");
  return std::string(reinterpret_cast<const char*>(digest), size);
}

std::optional<verification> token_cache::find(std::string_view token, clock::time_point now) {
  const auto it = index_.find(key_of(token));
  if (it == index_.end()) return std::nullopt;
  const auto position = it->second;
  if (position->expires <= now) {
    index_.erase(it);
    entries_.erase(position);
    return std::nullopt;
  }
  entries_.splice(entries_.begin(), entries_, position);
  return position->outcome;
}

void token_cache::put(std::string_view token, verification outcome, clock::time_point expires) {
  if (capacity_ == 0) return;
  auto key = key_of(token);
  if (const auto it = index_.find(key); it != index_.end()) {
    const auto position = it->second;
    index_.erase(it);
    entries_.erase(position);
  }
  while (entries_.size() >= capacity_) {
    index_.erase(entries_.back().key);
    entries_.pop_back();
  }
  entries_.push_front(entry{std::move(key), std::move(outcome), expires});
  index_.emplace(entries_.front().key, entries_.begin());
}

}  // namespace mcp::auth::detail
