#pragma once
// A thread-safe, insertion-ordered registry of named entries. Readers take a
// snapshot (one atomic pointer copy under a short lock) and never block
// writers for longer; writers copy, change and publish.

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

template <class Entry>
class registry {
 public:
  using entries = std::vector<std::shared_ptr<const Entry>>;

  std::shared_ptr<const entries> snapshot() const {
    std::lock_guard lock(mutex_);
    return items_;
  }

  /// Adds `entry` under `key`, replacing an entry with the same key in place.
  void put(std::string key, Entry entry) {
    auto item = std::make_shared<const Entry>(std::move(entry));
    std::lock_guard lock(mutex_);
    auto next = std::make_shared<entries>(*items_);
    auto same = std::ranges::find_if(*next, [&](const auto& e) { return e->key() == key; });
    if (same != next->end())
      *same = std::move(item);
    else
      next->push_back(std::move(item));
    items_ = std::move(next);
  }

  bool remove(std::string_view key) {
    std::lock_guard lock(mutex_);
    auto next = std::make_shared<entries>(*items_);
    const auto erased = std::erase_if(*next, [&](const auto& e) { return e->key() == key; });
    if (erased == 0) return false;
    items_ = std::move(next);
    return true;
  }

  std::shared_ptr<const Entry> find(std::string_view key) const {
    const auto all = snapshot();
    const auto it = std::ranges::find_if(*all, [&](const auto& e) { return e->key() == key; });
    return it == all->end() ? nullptr : *it;
  }

  bool empty() const { return snapshot()->empty(); }

 private:
  mutable std::mutex mutex_;
  std::shared_ptr<const entries> items_ = std::make_shared<const entries>();
};

}  // namespace mcp::detail
