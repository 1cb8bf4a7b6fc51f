#include "inbound_queue.hpp"
#include "../../../detail/as_tuple_awaitable.hpp"

#include <mcp/error.hpp>

#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail::http_client {

inbound_queue::inbound_queue(asio::any_io_executor ex, std::size_t max_bytes)
    : max_bytes_(max_bytes), readable_(ex), writable_(ex) {
  readable_.expires_at(asio::steady_timer::time_point::max());
  writable_.expires_at(asio::steady_timer::time_point::max());
}

asio::awaitable<void> inbound_queue::push(inbound_frame frame) {
  // One frame always fits in an empty queue, whatever its size.
  while (!closed_ && !frames_.empty() && bytes_ + frame.text.size() > max_bytes_)
    co_await writable_.async_wait(as_tuple_awaitable);
  if (closed_ || ended_ || !failure_.empty()) co_return;
  bytes_ += frame.text.size();
  frames_.push_back(std::move(frame));
  readable_.cancel();
}

asio::awaitable<void> inbound_queue::push(std::string frame) {
  inbound_frame text_only;
  text_only.text = std::move(frame);
  co_await push(std::move(text_only));
}

asio::awaitable<std::optional<inbound_frame>> inbound_queue::pop() {
  for (;;) {
    if (closed_) co_return std::nullopt;
    if (!frames_.empty()) {
      inbound_frame frame = std::move(frames_.front());
      frames_.pop_front();
      bytes_ -= frame.text.size();
      writable_.cancel();
      co_return frame;
    }
    if (!failure_.empty())
      throw mcp::error(asio::error::connection_aborted, failure_);
    if (ended_) co_return std::nullopt;
    co_await readable_.async_wait(as_tuple_awaitable);
  }
}

void inbound_queue::end() {
  ended_ = true;
  readable_.cancel();
}

void inbound_queue::fail(std::string what) {
  if (ended_ || closed_ || !failure_.empty()) return;
  failure_ = what.empty() ? std::string("HTTP transport failed") : std::move(what);
  readable_.cancel();
}

void inbound_queue::close() {
  closed_ = true;
  frames_.clear();
  bytes_ = 0;
  readable_.cancel();
  writable_.cancel();
}

}  // namespace mcp::detail::http_client
