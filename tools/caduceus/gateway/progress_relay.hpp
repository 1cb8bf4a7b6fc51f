#pragma once
// The progress of an upstream call, relayed to the downstream request it
// serves: in order, on that request's executor, and never after its answer.

#include <mcp/client/client.hpp>
#include <mcp/server/context.hpp>

#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <memory>

namespace caduceus::gateway {

class progress_relay : public std::enable_shared_from_this<progress_relay> {
 public:
  /// `ctx` must outlive the relay's finish() or abandon().
  explicit progress_relay(mcp::request_context& ctx);

  /// Queues an update, from any thread; dropped once the relay is done.
  void push(mcp::progress_update update);
  /// Waits until what was queued is sent; nothing is sent afterwards. Call
  /// before the request is answered. Cancelled, it gives up what is queued.
  boost::asio::awaitable<void> finish();
  /// Sends nothing more (the call failed).
  void abandon() noexcept { ctx_ = nullptr; }

 private:
  boost::asio::awaitable<void> pump();

  mcp::request_context* ctx_;  // null once done
  boost::asio::any_io_executor executor_;
  std::deque<mcp::progress_update> queue_;
  bool pumping_ = false;
  boost::asio::steady_timer drained_;  // cancelled when the pump stops
};

}  // namespace caduceus::gateway
