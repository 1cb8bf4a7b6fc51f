#pragma once
// An event coroutines wait on, as a timer that never expires: notify()
// cancels it, which wakes every waiter (they check their condition again).
// The timer is made on the first wait: most events are never waited on (an
// answer ready before anyone waits, a session that never fills up), and a
// timer costs a few of Asio's locks to make and to destroy.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>

namespace mcp::detail {

class lazy_event {
 public:
  explicit lazy_event(boost::asio::any_io_executor ex) : executor_(std::move(ex)) {}

  /// The timer to wait on (its expiry may be set for a wait with a deadline).
  boost::asio::steady_timer& timer() {
    if (!timer_) {
      timer_ = std::make_unique<boost::asio::steady_timer>(executor_);
      timer_->expires_at(boost::asio::steady_timer::time_point::max());
    }
    return *timer_;
  }

  const boost::asio::any_io_executor& executor() const noexcept { return executor_; }

  /// Wakes whatever waits; nothing to do while nothing has waited.
  void notify() {
    if (timer_) timer_->cancel();
  }

 private:
  boost::asio::any_io_executor executor_;
  // Made on the first wait, and by pointer: most events (an idle session's)
  // never wait, and an inline timer would cost each of them its 136 bytes.
  std::unique_ptr<boost::asio::steady_timer> timer_;
};

}  // namespace mcp::detail
