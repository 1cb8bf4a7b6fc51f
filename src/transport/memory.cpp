#include <mcp/error.hpp>
#include <mcp/transport/memory.hpp>

#include "../detail/as_tuple_awaitable.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <deque>

namespace mcp {

namespace {

using detail::as_tuple_awaitable;

// One direction of the pair: a bounded queue of frames. The timers never
// expire; cancelling one wakes whoever waits on it.
struct lane {
  explicit lane(asio::any_io_executor ex) : readable(ex), writable(ex) {
    readable.expires_at(asio::steady_timer::time_point::max());
    writable.expires_at(asio::steady_timer::time_point::max());
  }
  std::deque<std::string> frames;
  asio::steady_timer readable;
  asio::steady_timer writable;
};

struct link_state {
  explicit link_state(asio::any_io_executor ex, memory_options o)
      : lanes{lane(ex), lane(ex)}, options(o) {}
  lane lanes[2];
  memory_options options;
  bool closed = false;

  void close() {
    closed = true;
    for (auto& l : lanes) {
      l.readable.cancel();
      l.writable.cancel();
    }
  }
};

class memory_transport final : public message_transport {
 public:
  memory_transport(asio::any_io_executor ex, std::shared_ptr<link_state> state, int side)
      : executor_(ex), state_(std::move(state)), inbox_(state_->lanes[side]),
        outbox_(state_->lanes[1 - side]) {}

  ~memory_transport() override { state_->close(); }

  asio::any_io_executor get_executor() override { return executor_; }

  asio::awaitable<std::optional<inbound_frame>> read_frame() override {
    auto state = state_;  // the other end may go away while we wait
    while (inbox_.frames.empty()) {
      if (state->closed) co_return std::nullopt;
      auto [ec] = co_await inbox_.readable.async_wait(as_tuple_awaitable);
      if (ec && !state->closed && inbox_.frames.empty())
        throw mcp::error(asio::error::operation_aborted, "read");
    }
    std::string text = std::move(inbox_.frames.front());
    inbox_.frames.pop_front();
    inbox_.writable.cancel();
    if (text.size() > state->options.max_frame_size) co_return inbound_frame{{}, true};
    co_return inbound_frame{std::move(text), false};
  }

  asio::awaitable<void> write_frame(std::string frame) override {
    auto state = state_;
    while (!state->closed && outbox_.frames.size() >= state->options.capacity)
      co_await outbox_.writable.async_wait(as_tuple_awaitable);
    if (state->closed) throw mcp::error(asio::error::broken_pipe, "write");
    outbox_.frames.push_back(std::move(frame));
    outbox_.readable.cancel();
  }

  asio::awaitable<void> close() override {
    state_->close();
    co_return;
  }

  transport_metadata metadata() const override {
    transport_metadata metadata;
    metadata.kind = "memory";
    return metadata;
  }

 private:
  asio::any_io_executor executor_;
  std::shared_ptr<link_state> state_;
  lane& inbox_;
  lane& outbox_;
};

}  // namespace

std::pair<std::unique_ptr<message_transport>, std::unique_ptr<message_transport>>
make_memory_pair(asio::any_io_executor ex) {
  return make_memory_pair(ex, memory_options{});
}

std::pair<std::unique_ptr<message_transport>, std::unique_ptr<message_transport>>
make_memory_pair(asio::any_io_executor ex, memory_options options) {
  auto state = std::make_shared<link_state>(ex, options);
  return {std::make_unique<memory_transport>(ex, state, 0),
          std::make_unique<memory_transport>(ex, state, 1)};
}

}  // namespace mcp
