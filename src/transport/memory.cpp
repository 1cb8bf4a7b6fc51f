#include <mcp/transport/memory.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/channel.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp {

namespace {

using frame_channel =
    asio::experimental::channel<void(boost::system::error_code, std::string)>;

class memory_transport final : public message_transport {
 public:
  memory_transport(asio::any_io_executor ex, std::shared_ptr<frame_channel> inbox,
                   std::shared_ptr<frame_channel> outbox, std::size_t max_frame_size)
      : executor_(ex), inbox_(std::move(inbox)), outbox_(std::move(outbox)),
        max_frame_size_(max_frame_size) {}

  ~memory_transport() override { shut(); }

  asio::any_io_executor get_executor() override { return executor_; }

  asio::awaitable<std::optional<inbound_frame>> read_frame() override {
    auto [ec, text] = co_await inbox_->async_receive(
        asio::as_tuple(asio::use_awaitable));
    if (ec) co_return std::nullopt;  // closed by either end
    if (text.size() > max_frame_size_) co_return inbound_frame{{}, true};
    co_return inbound_frame{std::move(text), false};
  }

  asio::awaitable<void> write_frame(std::string frame) override {
    if (!outbox_->is_open()) throw boost::system::system_error(asio::error::broken_pipe);
    auto [ec] = co_await outbox_->async_send(boost::system::error_code{}, std::move(frame),
                                             asio::as_tuple(asio::use_awaitable));
    if (ec) throw boost::system::system_error(asio::error::broken_pipe);
  }

  asio::awaitable<void> close() override {
    shut();
    co_return;
  }

 private:
  void shut() noexcept {
    outbox_->close();
    inbox_->close();
  }

  asio::any_io_executor executor_;
  std::shared_ptr<frame_channel> inbox_;
  std::shared_ptr<frame_channel> outbox_;
  std::size_t max_frame_size_;
};

}  // namespace

std::pair<std::unique_ptr<message_transport>, std::unique_ptr<message_transport>>
make_memory_pair(asio::any_io_executor ex, memory_options options) {
  auto a_to_b = std::make_shared<frame_channel>(ex, options.capacity);
  auto b_to_a = std::make_shared<frame_channel>(ex, options.capacity);
  return {std::make_unique<memory_transport>(ex, b_to_a, a_to_b, options.max_frame_size),
          std::make_unique<memory_transport>(ex, a_to_b, b_to_a, options.max_frame_size)};
}

}  // namespace mcp
