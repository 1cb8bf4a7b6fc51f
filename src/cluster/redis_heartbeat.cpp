#include "redis_heartbeat.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace mcp::detail::redis {

struct heartbeat::state {
  state(asio::any_io_executor ex, std::shared_ptr<connection> commands, std::string key,
        std::chrono::milliseconds interval, std::chrono::milliseconds ttl)
      : strand(asio::make_strand(ex)),
        timer(strand),
        commands(std::move(commands)),
        key(std::move(key)),
        interval(interval),
        ttl(std::to_string(ttl.count())) {}

  // Sent without waiting: a heartbeat lost while Redis is away is logged by
  // the connection, and the next one is due soon anyway.
  void announce() { commands->send({"SET", key, "alive", "PX", ttl}); }

  asio::strand<asio::any_io_executor> strand;
  asio::steady_timer timer;  // on the strand, as is `stopped`
  bool stopped = false;
  std::shared_ptr<connection> commands;
  const std::string key;
  const std::chrono::milliseconds interval;
  const std::string ttl;  // ms
};

heartbeat::heartbeat(asio::any_io_executor ex, std::shared_ptr<connection> commands, std::string key,
                     std::chrono::milliseconds interval, std::chrono::milliseconds ttl)
    : state_(std::make_shared<state>(std::move(ex), std::move(commands), std::move(key), interval, ttl)) {
  // At once, so that node_alive(node_id()) holds as soon as the stores exist.
  state_->announce();
  asio::co_spawn(state_->strand, beat(state_), asio::detached);
}

heartbeat::~heartbeat() { stop(); }

void heartbeat::stop() noexcept {
  try {
    asio::post(state_->strand, [s = state_] {
      s->stopped = true;
      s->timer.cancel();
    });
  } catch (...) {
    // Only allocation can fail here; the timer then ends with the io_context.
  }
}

// `s` keeps the state alive until stop() ends the loop.
asio::awaitable<void> heartbeat::beat(std::shared_ptr<state> s) {
  while (!s->stopped) {
    s->timer.expires_after(s->interval);
    co_await s->timer.async_wait(asio::as_tuple(asio::use_awaitable));
    if (!s->stopped) s->announce();
  }
}

}  // namespace mcp::detail::redis
