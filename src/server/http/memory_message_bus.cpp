// The default message bus: channels inside this process. Messages are
// handed to their subscribers on a strand, never inside publish(), so that a
// publisher may hold its own locks while it publishes.

#include <mcp/server/message_bus.hpp>

#include "../../detail/random.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include <map>
#include <mutex>

namespace mcp {
namespace {

class memory_message_bus final : public message_bus, public std::enable_shared_from_this<memory_message_bus> {
 public:
  explicit memory_message_bus(asio::any_io_executor ex)
      : strand_(asio::make_strand(ex)), node_(detail::random_hex(8)) {}

  void publish(std::string channel, std::string message) override {
    asio::post(strand_, [self = shared_from_this(), channel = std::move(channel), message = std::move(message)] {
      self->deliver(channel, message);
    });
  }

  asio::awaitable<std::unique_ptr<subscription>> subscribe(std::string channel, handler on_message,
                                                           std::function<void()> on_gap) override {
    (void)on_gap;  // nothing is ever lost inside one process
    std::lock_guard lock(mutex_);
    const auto number = next_++;
    channels_[channel][number] = std::make_shared<handler>(std::move(on_message));
    co_return std::make_unique<ticket>(weak_from_this(), std::move(channel), number);
  }

  const std::string& node_id() const noexcept override { return node_; }

  asio::awaitable<bool> node_alive(std::string node) override { co_return node == node_; }

 private:
  struct ticket final : subscription {
    ticket(std::weak_ptr<memory_message_bus> bus, std::string channel, std::uint64_t number)
        : bus(std::move(bus)), channel(std::move(channel)), number(number) {}
    ~ticket() override {
      if (auto b = bus.lock()) b->drop(channel, number);
    }
    std::weak_ptr<memory_message_bus> bus;
    std::string channel;
    std::uint64_t number;
  };

  void deliver(const std::string& channel, const std::string& message) {
    std::vector<std::shared_ptr<handler>> handlers;
    {
      std::lock_guard lock(mutex_);
      const auto it = channels_.find(channel);
      if (it == channels_.end()) return;
      for (const auto& [number, h] : it->second) handlers.push_back(h);
    }
    for (const auto& h : handlers) (*h)(message);
  }

  void drop(const std::string& channel, std::uint64_t number) {
    std::lock_guard lock(mutex_);
    const auto it = channels_.find(channel);
    if (it == channels_.end()) return;
    it->second.erase(number);
    if (it->second.empty()) channels_.erase(it);
  }

  asio::strand<asio::any_io_executor> strand_;
  const std::string node_;
  std::mutex mutex_;
  std::map<std::string, std::map<std::uint64_t, std::shared_ptr<handler>>, std::less<>> channels_;
  std::uint64_t next_ = 0;
};

}  // namespace

std::shared_ptr<message_bus> make_memory_message_bus(asio::any_io_executor ex) {
  return std::make_shared<memory_message_bus>(std::move(ex));
}

}  // namespace mcp
