#pragma once
// The pauses between connection attempts: reconnect_policy's initial delay,
// doubling up to its maximum.

#include <mcp/client/client.hpp>

#include <algorithm>

namespace mcp::detail {

class backoff_delays {
 public:
  explicit backoff_delays(const reconnect_policy& policy) : next_(policy.initial_delay), max_(policy.max_delay) {}

  std::chrono::milliseconds next() {
    const auto now = next_;
    next_ = std::min(next_ * 2, max_);
    return now;
  }

 private:
  std::chrono::milliseconds next_;
  std::chrono::milliseconds max_;
};

}  // namespace mcp::detail
