// The message bus on Redis pub/sub. Publishing goes through the connection
// the event store writes on, without waiting, so a message is ordered after
// the appends made before it. Subscriptions share one subscriber (a
// connection in subscribe mode): a channel is subscribed in Redis once,
// however many local subscriptions it has, and its messages are handed to
// each of them on the subscriber's strand, in the order they came.

#include "redis_heartbeat.hpp"
#include "redis_parts.hpp"

#include "../detail/random.hpp"
#include "redis/subscriber.hpp"

#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>

namespace mcp::detail::redis {

namespace {

// The local subscriptions of each channel (by its name in Redis), shared
// with the subscriber's handlers.
class local_subscriptions {
 public:
  struct entry {
    entry(message_bus::handler on_message, std::function<void()> on_gap)
        : on_message(std::move(on_message)), on_gap(std::move(on_gap)) {}
    message_bus::handler on_message;
    std::function<void()> on_gap;
  };

  std::uint64_t add(const std::string& channel, message_bus::handler on_message, std::function<void()> on_gap) {
    auto e = std::make_shared<const entry>(std::move(on_message), std::move(on_gap));
    std::lock_guard lock(mutex_);
    const auto number = next_++;
    channels_[channel].emplace(number, std::move(e));
    return number;
  }

  void remove(const std::string& channel, std::uint64_t number) {
    std::lock_guard lock(mutex_);
    const auto it = channels_.find(channel);
    if (it == channels_.end()) return;
    it->second.erase(number);
    if (it->second.empty()) channels_.erase(it);
  }

  bool wanted(const std::string& channel) const {
    std::lock_guard lock(mutex_);
    return channels_.contains(channel);
  }

  // Handlers run outside the lock: one may subscribe, or drop its handle.
  void deliver(std::string_view channel, std::string_view message) const {
    std::vector<std::shared_ptr<const entry>> found;
    {
      std::lock_guard lock(mutex_);
      const auto it = channels_.find(channel);
      if (it == channels_.end()) return;
      for (const auto& [number, e] : it->second) found.push_back(e);
    }
    for (const auto& e : found) e->on_message(message);
  }

  void gap() const {
    std::vector<std::shared_ptr<const entry>> found;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [channel, entries] : channels_)
        for (const auto& [number, e] : entries) found.push_back(e);
    }
    for (const auto& e : found)
      if (e->on_gap) e->on_gap();
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::string, std::map<std::uint64_t, std::shared_ptr<const entry>>, std::less<>> channels_;
  std::uint64_t next_ = 0;
};

class redis_message_bus final : public closable_bus, public std::enable_shared_from_this<redis_message_bus> {
 public:
  redis_message_bus(asio::any_io_executor ex, std::shared_ptr<connection> commands, config subscriptions,
                    key_names keys, const cluster::redis_options& options)
      : commands_(std::move(commands)),
        keys_(std::move(keys)),
        node_(random_hex(8)),
        locals_(std::make_shared<local_subscriptions>()),
        subscriber_(subscriber::create(
            ex, std::move(subscriptions),
            [locals = locals_](std::string_view channel, std::string_view message) { locals->deliver(channel, message); },
            [locals = locals_] { locals->gap(); })),
        changes_(asio::make_strand(ex)),
        heartbeat_(ex, commands_, keys_.node(node_), options.heartbeat_interval, options.node_ttl) {}

  ~redis_message_bus() override { close(); }

  void publish(std::string channel, std::string message) override {
    commands_->send({"PUBLISH", keys_.channel(channel), std::move(message)});
  }

  asio::awaitable<std::unique_ptr<subscription>> subscribe(std::string channel, handler on_message,
                                                           std::function<void()> on_gap) override {
    if (closed_) throw store_unavailable("redis message bus: closed");
    auto name = keys_.channel(channel);
    const auto number = locals_->add(name, std::move(on_message), std::move(on_gap));
    // Made first: should Redis refuse, its destructor takes the local one out again.
    auto handle = std::make_unique<ticket>(weak_from_this(), name, number);
    auto confirmed = asio::co_spawn(changes_, follow(shared_from_this(), std::move(name)), asio::use_awaitable);
    co_await std::move(confirmed);
    co_return handle;
  }

  const std::string& node_id() const noexcept override { return node_; }

  asio::awaitable<bool> node_alive(std::string node) override {
    const auto key = keys_.node(node);
    const auto exists = co_await commands_->command("EXISTS", key);
    co_return exists.as_integer() == 1;
  }

  void close() noexcept override {
    closed_ = true;
    heartbeat_.stop();
    subscriber_->close();
  }

 private:
  struct ticket final : subscription {
    ticket(std::weak_ptr<redis_message_bus> bus, std::string channel, std::uint64_t number)
        : bus(std::move(bus)), channel(std::move(channel)), number(number) {}
    ~ticket() override {
      if (auto b = bus.lock()) b->unsubscribe(channel, number);
    }
    std::weak_ptr<redis_message_bus> bus;
    std::string channel;
    std::uint64_t number;
  };

  // Without blocking: the Redis side follows on the strand of changes.
  void unsubscribe(const std::string& channel, std::uint64_t number) {
    locals_->remove(channel, number);
    // Closed, its executor may be gone (a handle that outlives the server's io_context).
    if (closed_) return;
    try {
      asio::co_spawn(changes_, follow(shared_from_this(), channel), [channel](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& failure) {
          sdk_log(log_category::cluster, log_level::warn, "the Redis message bus cannot update a subscription",
                  {{"channel", channel}, {"error", failure.what()}});
        }
      });
    } catch (...) {
      // Only allocation can fail here: the channel then stays subscribed in
      // Redis, and its messages reach no one.
    }
  }

  // On the strand of changes: subscribes the subscriber to `channel` when
  // it has local subscriptions now, else unsubscribes it without waiting
  // for Redis (subscriber::drop: nothing needs the confirmation, and a
  // session that ends at shutdown would wait on a closing link). Reading the wish
  // and handing the request to the subscriber happen in one step of the
  // strand (a request is queued before its first suspension), so requests
  // reach the subscriber in the order of the wishes, and the last one wins:
  // a channel dropped and taken again at once stays subscribed. A SUBSCRIBE
  // of a channel subscribed already is harmless: Redis confirms it again.
  static asio::awaitable<void> follow(std::shared_ptr<redis_message_bus> self, std::string channel) {
    if (self->locals_->wanted(channel))
      co_await self->subscriber_->subscribe(std::move(channel));
    else
      self->subscriber_->drop(std::move(channel));
  }

  std::shared_ptr<connection> commands_;
  key_names keys_;
  const std::string node_;
  std::shared_ptr<local_subscriptions> locals_;
  std::shared_ptr<subscriber> subscriber_;
  asio::strand<asio::any_io_executor> changes_;  // where follow() runs
  heartbeat heartbeat_;
  std::atomic<bool> closed_ = false;
};

}  // namespace

std::shared_ptr<closable_bus> make_message_bus(asio::any_io_executor ex, std::shared_ptr<connection> commands,
                                               config subscriptions, key_names keys,
                                               const cluster::redis_options& options) {
  return std::make_shared<redis_message_bus>(std::move(ex), std::move(commands), std::move(subscriptions),
                                             std::move(keys), options);
}

}  // namespace mcp::detail::redis
