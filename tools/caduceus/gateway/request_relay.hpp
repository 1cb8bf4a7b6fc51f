#pragma once
// What the upstream sends about a call while it runs (its progress, its log
// messages), relayed to the downstream request the call serves: in order, on
// that request's executor, on the request's own stream, and never after the
// request's answer.

#include <mcp/client/client.hpp>
#include <mcp/server/context.hpp>

#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <memory>
#include <variant>

namespace caduceus::gateway {

class request_relay : public std::enable_shared_from_this<request_relay> {
 public:
  /// `ctx` must outlive the relay's finish() or abandon().
  explicit request_relay(mcp::request_context& ctx);

  /// Queues a progress update or a notification, from any thread; dropped
  /// once the relay is done.
  void push(mcp::progress_update update);
  void push(mcp::notification n);
  /// Waits until what was queued is sent; nothing is sent afterwards. Call
  /// before the request is answered. Cancelled, it gives up what is queued.
  boost::asio::awaitable<void> finish();
  /// Sends nothing more (the call failed, or the request's round ended).
  void abandon() noexcept { ctx_ = nullptr; }

 private:
  using item = std::variant<mcp::progress_update, mcp::notification>;
  void queue(item what);
  boost::asio::awaitable<void> pump();

  mcp::request_context* ctx_;  // null once done
  boost::asio::any_io_executor executor_;
  std::deque<item> queue_;
  bool pumping_ = false;
  boost::asio::steady_timer drained_;  // cancelled when the pump stops
};

}  // namespace caduceus::gateway
