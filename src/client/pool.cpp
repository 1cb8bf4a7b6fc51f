// client_pool: round-robin over clients that reconnect by themselves; a
// client whose very first connection failed is retried here, with the same
// pacing as a reconnection.

#include <mcp/client/pool.hpp>
#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include "backoff.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>
#include <limits>
#include <vector>

namespace mcp {

using namespace asio::experimental::awaitable_operators;

struct client_pool::impl : std::enable_shared_from_this<impl> {
  impl(asio::any_io_executor ex, transport_factory f, pool_options opts)
      : executor(ex), factory(std::move(f)), options(std::move(opts)), closed(ex) {
    closed.expires_at(asio::steady_timer::time_point::max());
    if (options.size == 0) throw mcp::invalid_argument("a client pool needs at least one connection");
    options.client.reconnect.max_attempts = std::numeric_limits<std::size_t>::max();
    for (std::size_t i = 0; i < options.size; ++i) members.push_back(std::make_unique<client>(ex, options.client));
  }

  /// Connects member `i`; until it succeeds, tries again after each pause.
  asio::awaitable<void> connect_member(std::size_t i, bool first_attempt_only);
  /// Ends every pause and closes every member (a connecting one stops trying).
  asio::awaitable<void> close();

  asio::any_io_executor executor;
  transport_factory factory;
  pool_options options;
  std::vector<std::unique_ptr<client>> members;
  std::size_t cursor = 0;
  bool closing = false;
  asio::steady_timer closed;  // an event: cancelled by close(), ending every pause
};

asio::awaitable<void> client_pool::impl::connect_member(std::size_t i, bool first_attempt_only) {
  auto self = shared_from_this();
  detail::backoff_delays delays(options.client.reconnect);
  while (!closing) {
    try {
      co_await members[i]->connect(factory);
      if (closing) co_await members[i]->close();  // connected as the pool closed
      co_return;
    } catch (const std::exception& e) {
      if (first_attempt_only || closing) throw;
      sdk_log(log_category::client, log_level::warn, "a pooled connection failed to connect",
              {{"connection", i}, {"error", e.what()}});
    }
    asio::steady_timer pause(executor, delays.next());
    co_await (pause.async_wait(asio::as_tuple(asio::use_awaitable)) ||
              closed.async_wait(asio::as_tuple(asio::use_awaitable)));
  }
}

asio::any_io_executor client_pool::executor() const noexcept { return impl_->executor; }

client_pool::client_pool(asio::any_io_executor ex, transport_factory factory, pool_options options)
    : impl_(std::make_shared<impl>(ex, std::move(factory), std::move(options))) {}

// As a client's destructor: the close runs in the background, so that no
// pause or connection attempt keeps the io_context running after the pool.
client_pool::~client_pool() {
  asio::co_spawn(impl_->executor, [self = impl_] { return self->close(); }, asio::detached);
}

void client_pool::for_each(const std::function<void(client&)>& prepare) {
  for (auto& member : impl_->members) prepare(*member);
}

asio::awaitable<void> client_pool::connect() {
  auto self = impl_;
  const auto n = self->members.size();
  // Shared with the attempts: they outlive this coroutine if it is cancelled.
  struct attempts {
    explicit attempts(asio::any_io_executor ex, std::size_t n) : failures(n), all_done(ex) {
      all_done.expires_at(asio::steady_timer::time_point::max());
    }
    std::vector<std::exception_ptr> failures;
    std::size_t finished = 0;
    asio::steady_timer all_done;
  };
  auto state = std::make_shared<attempts>(self->executor, n);
  for (std::size_t i = 0; i < n; ++i) {
    asio::co_spawn(self->executor, self->connect_member(i, true), [state, i, n](std::exception_ptr e) {
      state->failures[i] = e;
      if (++state->finished == n) state->all_done.cancel();
    });
  }
  co_await state->all_done.async_wait(asio::as_tuple(asio::use_awaitable));
  const auto connected = std::ranges::count(state->failures, std::exception_ptr{});
  if (connected == 0) std::rethrow_exception(state->failures.front());
  for (std::size_t i = 0; i < n; ++i) {
    if (state->failures[i])
      asio::co_spawn(self->executor, self->connect_member(i, false), [](std::exception_ptr) {});
  }
}

client& client_pool::next() {
  auto& d = *impl_;
  const auto n = d.members.size();
  for (std::size_t step = 0; step < n; ++step) {
    auto& candidate = *d.members[(d.cursor + step) % n];
    if (candidate.state() != connection_state::ready) continue;
    d.cursor = (d.cursor + step + 1) % n;
    return candidate;
  }
  auto& waiting = *d.members[d.cursor];
  d.cursor = (d.cursor + 1) % n;
  return waiting;
}

std::size_t client_pool::size() const noexcept { return impl_->members.size(); }

std::size_t client_pool::ready() const noexcept {
  std::size_t count = 0;
  for (const auto& member : impl_->members) count += member->state() == connection_state::ready;
  return count;
}

asio::awaitable<void> client_pool::close() { return impl_->close(); }

asio::awaitable<void> client_pool::impl::close() {
  auto self = shared_from_this();
  closing = true;
  closed.cancel();
  for (auto& member : members) co_await member->close();
}

}  // namespace mcp
