#pragma once
// The lists of middleware links of the server's and the client's chains:
// copied on write under the chain's mutex, so that a call holds the list as
// it was when it started, whatever is added or removed meanwhile. (Not
// std::atomic<std::shared_ptr>: libc++, macOS's standard library, lacks it.)
// `empty`, when given, says whether the list is empty, for readers that skip
// the mutex; it changes under the mutex with the list.

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

namespace mcp::detail {

/// Adds `link` at the end of `links`.
template <class Link>
void add_link(std::mutex& mutex, std::shared_ptr<const std::vector<std::shared_ptr<Link>>>& links,
              std::shared_ptr<Link> link, std::atomic<bool>* empty = nullptr) {
  const std::lock_guard lock(mutex);
  auto next = std::make_shared<std::vector<std::shared_ptr<Link>>>(*links);
  next->push_back(std::move(link));
  links = std::move(next);
  if (empty) empty->store(false, std::memory_order_release);
}

/// Removes `link` from `links`; false when it was not there.
template <class Link>
bool remove_link(std::mutex& mutex, std::shared_ptr<const std::vector<std::shared_ptr<Link>>>& links,
                 const std::shared_ptr<Link>& link, std::atomic<bool>* empty = nullptr) {
  const std::lock_guard lock(mutex);
  auto next = std::make_shared<std::vector<std::shared_ptr<Link>>>(*links);
  if (std::erase(*next, link) == 0) return false;
  if (empty) empty->store(next->empty(), std::memory_order_release);
  links = std::move(next);
  return true;
}

/// The list as it is now.
template <class Links>
std::shared_ptr<const Links> snapshot_of(std::mutex& mutex, const std::shared_ptr<const Links>& links) {
  const std::lock_guard lock(mutex);
  return links;
}

}  // namespace mcp::detail
