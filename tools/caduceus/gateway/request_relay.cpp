#include "request_relay.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace caduceus::gateway {

namespace asio = boost::asio;

request_relay::request_relay(mcp::request_context& ctx)
    : ctx_(&ctx),
      executor_(ctx.session().get_executor()),
      drained_(executor_, asio::steady_timer::time_point::max()) {}

void request_relay::push(mcp::progress_update update) { queue(std::move(update)); }

void request_relay::push(mcp::notification n) { queue(std::move(n)); }

void request_relay::queue(item what) {
  asio::post(executor_, [self = shared_from_this(), what = std::move(what)]() mutable {
    if (!self->ctx_) return;
    self->queue_.push_back(std::move(what));
    if (self->pumping_) return;
    self->pumping_ = true;
    asio::co_spawn(self->executor_, self->pump(), asio::detached);
  });
}

asio::awaitable<void> request_relay::pump() {
  auto self = shared_from_this();
  while (ctx_ && !queue_.empty()) {
    auto next = std::move(queue_.front());
    queue_.pop_front();
    try {
      if (auto* update = std::get_if<mcp::progress_update>(&next))
        co_await ctx_->progress(update->progress, update->total, update->message);
      else
        co_await ctx_->notify(std::move(std::get<mcp::notification>(next).method),
                              std::move(std::get<mcp::notification>(next).params));
    } catch (const std::exception&) {
      break;  // the request's connection ended: nothing more reaches it
    }
  }
  queue_.clear();
  pumping_ = false;
  drained_.cancel();
}

asio::awaitable<void> request_relay::finish() {
  while (pumping_) {
    co_await drained_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (pumping_) break;  // our own wait was cancelled: the request goes unanswered anyway
  }
  ctx_ = nullptr;
}

}  // namespace caduceus::gateway
