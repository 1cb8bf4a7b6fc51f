#include "subscriber.hpp"

#include "link.hpp"
#include "wire.hpp"

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <mutex>
#include <set>

namespace mcp::detail::redis {

namespace {

bool is_text(const reply& r, std::string_view text) { return r.is_string() && r.as_string() == text; }

}  // namespace

struct subscriber::impl final : link {
  enum class verb { subscribe, unsubscribe, psubscribe, punsubscribe };

  impl(asio::any_io_executor ex, config cfg, message_handler on_message, std::function<void()> on_reconnect)
      : link(std::move(ex), std::move(cfg)),
        on_message_(std::move(on_message)),
        on_reconnect_(std::move(on_reconnect)),
        health_(strand()) {}

  // On the strand: what a later link subscribes to again.
  void change_set(verb v, const std::string& name) {
    switch (v) {
      case verb::subscribe: channels_.insert(name); break;
      case verb::unsubscribe: channels_.erase(name); break;
      case verb::psubscribe: patterns_.insert(name); break;
      case verb::punsubscribe: patterns_.erase(name); break;
    }
  }

  // Changes the set and sends the command, on the strand; `p` waits for
  // Redis's confirmation.
  void request(verb v, std::string name, pending_command p) {
    asio::post(strand(), [self = std::static_pointer_cast<impl>(shared_from_this()), v, name = std::move(name),
                          p = std::move(p)]() mutable {
      self->change_set(v, name);
      self->submit_here(std::move(p));
    });
  }

  // Takes `channel` out of the set and sends the UNSUBSCRIBE in order with
  // the other changes, without waiting for Redis, and not at all on a closed
  // link (closing ends every subscription). Waiting would turn a link that
  // closes meanwhile, as at every shutdown, into an exception per channel.
  void drop(std::string channel) {
    asio::post(strand(), [self = std::static_pointer_cast<impl>(shared_from_this()), channel = std::move(channel)] {
      self->change_set(verb::unsubscribe, channel);
      if (self->closed()) return;
      pending_command p;
      append_command(p.wire, {"UNSUBSCRIBE", channel});
      p.name = "UNSUBSCRIBE";
      p.work = self->strand();
      p.set_done([channel](std::exception_ptr, std::vector<reply> confirmations) {
        for (const auto& c : confirmations)
          if (c.is_error())
            sdk_log(log_category::cluster, log_level::warn, "Redis unsubscribing failed",
                    {{"channel", channel}, {"error", c.error_message()}});
      });
      self->submit_here(std::move(p));
    });
  }

  // Sends a (un)subscription; completes with Redis's confirmation. Not a
  // coroutine: see await_replies.
  static asio::awaitable<std::vector<reply>> send_change(std::shared_ptr<impl> self, verb v, const char* command,
                                                          std::string name) {
    std::string wire;
    append_command(wire, {command, name});
    return await_replies(std::move(wire), 1, [self = std::move(self), v, name = std::move(name)](pending_command p) {
      self->request(v, name, std::move(p));
    });
  }

  static asio::awaitable<void> change(std::shared_ptr<impl> self, verb v, const char* command, std::string name) {
    auto replies = co_await send_change(std::move(self), v, command, std::move(name));
    const auto& confirmation = replies.front();
    if (confirmation.is_error()) throw error_reply(std::string(confirmation.error_message()));
  }

  void start_health_checks() {
    asio::co_spawn(strand(), health(std::static_pointer_cast<impl>(shared_from_this())), asio::detached);
  }

  // A PING now and then: with nothing else to read, only that tells a dead
  // link from a quiet one (its reply has command_timeout, as any command).
  // `self` keeps the subscriber alive until close() cancels the timer.
  asio::awaitable<void> health([[maybe_unused]] std::shared_ptr<impl> self) {
    while (!closed()) {
      health_.expires_after(settings().health_interval);
      co_await health_.async_wait(asio::as_tuple(asio::use_awaitable));
      if (closed()) co_return;
      if (!ready()) continue;
      pending_command ping;
      append_command(ping.wire, {"PING"});
      ping.name = "PING";
      submit_here(std::move(ping));
    }
  }

  /// Runs a user's handler unless close() has been called; a handler that
  /// throws is logged (it must not end the reading of messages).
  template <class F>
  void call(F&& f) {
    std::lock_guard lock(callbacks_);
    if (callbacks_off_) return;
    try {
      f();
    } catch (const std::exception& e) {
      sdk_log(log_category::cluster, log_level::error, "a Redis subscriber's handler threw", {{"error", e.what()}});
    } catch (...) {
      sdk_log(log_category::cluster, log_level::error, "a Redis subscriber's handler threw");
    }
  }

  void stop_callbacks() {
    std::lock_guard lock(callbacks_);
    callbacks_off_ = true;
  }

  bool take_push(reply& r) override {
    if (!r.is_array()) return false;
    const auto& e = r.as_array();
    if (e.size() == 3 && is_text(e[0], "message") && e[1].is_string() && e[2].is_string()) {
      if (on_message_ && channels_.contains(e[1].as_string())) call([&] { on_message_(e[1].as_string(), e[2].as_string()); });
      return true;
    }
    if (e.size() == 4 && is_text(e[0], "pmessage") && e[1].is_string() && e[2].is_string() && e[3].is_string()) {
      if (on_message_ && patterns_.contains(e[1].as_string())) call([&] { on_message_(e[2].as_string(), e[3].as_string()); });
      return true;
    }
    return false;
  }

  // A new link knows none of the set: subscribe to it all again, then say so.
  // The first attempt's link needs nothing: what was asked meanwhile is queued.
  void on_ready(bool first) override {
    if (first) return;
    pending_command p;
    if (!channels_.empty()) {
      std::vector<std::string> args{"SUBSCRIBE"};
      args.insert(args.end(), channels_.begin(), channels_.end());
      append_command(p.wire, args);
    }
    if (!patterns_.empty()) {
      std::vector<std::string> args{"PSUBSCRIBE"};
      args.insert(args.end(), patterns_.begin(), patterns_.end());
      append_command(p.wire, args);
    }
    p.replies = channels_.size() + patterns_.size();
    p.name = "SUBSCRIBE";
    p.work = strand();
    p.set_done([weak = std::weak_ptr<impl>(std::static_pointer_cast<impl>(shared_from_this()))](
                   std::exception_ptr error, std::vector<reply> confirmations) {
      auto self = weak.lock();
      if (!self || error) return;  // the link failed again: the next one tries again
      for (const auto& c : confirmations)
        if (c.is_error())
          sdk_log(log_category::cluster, log_level::error, "Redis resubscribing failed", {{"error", c.error_message()}});
      if (self->on_reconnect_) self->call(self->on_reconnect_);
    });
    if (p.replies == 0) {
      asio::post(strand(), [done = std::move(p.done)]() mutable { std::move(done)(nullptr, std::vector<reply>{}); });
      return;
    }
    submit_here(std::move(p));
  }

  void on_closed() override { health_.cancel(); }

  message_handler on_message_;
  std::function<void()> on_reconnect_;
  std::recursive_mutex callbacks_;  // recursive: a handler may call close()
  bool callbacks_off_ = false;
  std::set<std::string> channels_;  // on the strand, as is all below
  std::set<std::string> patterns_;
  asio::steady_timer health_;
};

std::shared_ptr<subscriber> subscriber::create(asio::any_io_executor ex, config cfg, message_handler on_message,
                                               std::function<void()> on_reconnect) {
  auto i = std::make_shared<impl>(std::move(ex), std::move(cfg), std::move(on_message), std::move(on_reconnect));
  i->start();
  i->start_health_checks();
  return std::shared_ptr<subscriber>(new subscriber(std::move(i)));
}

subscriber::subscriber(std::shared_ptr<impl> i) : impl_(std::move(i)) {}

subscriber::~subscriber() { close(); }

asio::awaitable<void> subscriber::subscribe(std::string channel) {
  co_await impl::change(impl_, impl::verb::subscribe, "SUBSCRIBE", std::move(channel));
}

asio::awaitable<void> subscriber::psubscribe(std::string pattern) {
  co_await impl::change(impl_, impl::verb::psubscribe, "PSUBSCRIBE", std::move(pattern));
}

asio::awaitable<void> subscriber::unsubscribe(std::string channel) {
  try {
    co_await impl::change(impl_, impl::verb::unsubscribe, "UNSUBSCRIBE", std::move(channel));
  } catch (const unavailable&) {
    // Out of the set already: no later link subscribes to it.
  }
}

void subscriber::drop(std::string channel) { impl_->drop(std::move(channel)); }

asio::awaitable<void> subscriber::punsubscribe(std::string pattern) {
  try {
    co_await impl::change(impl_, impl::verb::punsubscribe, "PUNSUBSCRIBE", std::move(pattern));
  } catch (const unavailable&) {
  }
}

bool subscriber::connected() const noexcept { return impl_->connected(); }

void subscriber::close() noexcept {
  impl_->stop_callbacks();
  try {
    impl_->close();
  } catch (...) {
    // Only allocation can fail here; the link then ends with the io_context.
  }
}

}  // namespace mcp::detail::redis
