#pragma once
// The waits between reconnection attempts: doubling from `initial` up to
// `max`, each drawn from [w/2, w] so that many processes that lost Redis at
// the same moment do not all come back at the same moment.

#include <algorithm>
#include <chrono>
#include <random>

namespace mcp::detail::redis {

class backoff {
 public:
  backoff(std::chrono::milliseconds initial, std::chrono::milliseconds max)
      : initial_(std::max(initial, std::chrono::milliseconds(1))),
        max_(std::max(max, initial_)),
        next_(initial_),
        random_(std::random_device{}()) {}

  /// The wait before the next attempt; the one after it will be longer.
  std::chrono::milliseconds next() {
    const auto w = next_;
    next_ = std::min(next_ * 2, max_);
    std::uniform_int_distribution<long long> pick(w.count() / 2, w.count());
    return std::chrono::milliseconds(pick(random_));
  }

  /// After a success: the next failure waits `initial` again.
  void reset() { next_ = initial_; }

 private:
  std::chrono::milliseconds initial_;
  std::chrono::milliseconds max_;
  std::chrono::milliseconds next_;
  std::minstd_rand random_;
};

}  // namespace mcp::detail::redis
