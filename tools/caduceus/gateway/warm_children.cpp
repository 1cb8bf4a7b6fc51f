#include "warm_children.hpp"

#include <mcp/log.hpp>

namespace caduceus::gateway {

warm_children::warm_children(starter start, std::function<asio::any_io_executor()> new_strand, std::size_t count)
    : start_(std::move(start)), new_strand_(std::move(new_strand)), count_(count) {
  std::lock_guard lock(mutex_);
  top_up();
}

std::optional<warm_child> warm_children::take() {
  std::lock_guard lock(mutex_);
  std::optional<warm_child> taken;
  if (!ready_.empty()) {
    taken = std::move(ready_.front());
    ready_.pop_front();
  }
  top_up();
  return taken;
}

void warm_children::clear() {
  std::lock_guard lock(mutex_);
  count_ = 0;
  ready_.clear();
}

void warm_children::top_up() {
  while (ready_.size() < count_) {
    auto strand = new_strand_();
    try {
      auto transport = start_(strand);
      ready_.push_back({std::move(strand), std::move(transport)});
    } catch (const std::exception& e) {
      mcp::sdk_log(mcp::log_category::transport, mcp::log_level::warn, "gateway: a child could not be started ahead",
                   {{"error", e.what()}});
      return;
    }
  }
}

}  // namespace caduceus::gateway
