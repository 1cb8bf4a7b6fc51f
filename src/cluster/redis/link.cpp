#include "link.hpp"
#include "../../detail/as_tuple_awaitable.hpp"

#include "dial.hpp"

#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

namespace mcp::detail::redis {

namespace {

using clock = std::chrono::steady_clock;
// Bytes gathered into one write: enough to batch many small commands, small
// enough not to copy a whole backlog at once.
constexpr std::size_t write_batch = 1 << 20;
constexpr std::size_t read_chunk = 64 * 1024;

}  // namespace

link::link(asio::any_io_executor ex, config cfg)
    : cfg_(std::move(cfg)),
      where_("redis " + cfg_.endpoint()),
      strand_(asio::make_strand(ex)),
      socket_(strand_),
      resolver_(strand_),
      retry_timer_(strand_),
      watchdog_(strand_),
      read_buffer_(read_chunk),
      backoff_(cfg_.backoff_initial, cfg_.backoff_max) {}

void link::start() { asio::co_spawn(strand_, run(), asio::detached); }

void link::submit(pending_command p) {
  asio::post(strand_, [self = shared_from_this(), p = std::move(p)]() mutable { self->submit_here(std::move(p)); });
}

void link::close() {
  asio::post(strand_, [self = shared_from_this()] { self->shut(); });
}

void link::submit_here(pending_command p) {
  auto refuse = [&](unavailable_reason reason, const std::string& why) {
    in_flight_ += p.replies;  // finish() takes them off again
    finish(p, std::make_exception_ptr(unavailable(reason, why)));
  };
  if (state_ == state::closed) return refuse(unavailable_reason::closed, where_ + ": the connection is closed");
  if (state_ != state::ready && !(state_ == state::connecting && first_attempt_))
    return refuse(unavailable_reason::not_connected, where_ + ": not connected (" + last_failure_ + ")");
  if (in_flight_ + p.replies > cfg_.max_in_flight)
    return refuse(unavailable_reason::overloaded,
                  where_ + ": too many commands in flight (limit " + std::to_string(cfg_.max_in_flight) + ")");
  if (unwritten_ + p.wire.size() > cfg_.max_unwritten_bytes)
    return refuse(unavailable_reason::overloaded, where_ + ": too many bytes waiting to be written (limit " +
                                                      std::to_string(cfg_.max_unwritten_bytes) + ")");
  in_flight_ += p.replies;
  unwritten_ += p.wire.size();
  p.deadline = clock::now() + cfg_.command_timeout;
  waiting_.push_back(std::move(p));
  watch();
  flush();
}

asio::awaitable<void> link::run() {
  auto self = shared_from_this();
  bool quiet = false;  // after the first failure of a run of them, attempts log at debug
  while (state_ != state::closed) {
    state_ = state::connecting;
    replies_ = std::make_unique<decoder>();
    std::string failure;
    try {
      co_await dial(socket_, resolver_, cfg_, *replies_);
    } catch (const unavailable& e) {
      failure = e.what();
    }
    if (state_ == state::closed) break;
    const bool first = std::exchange(first_attempt_, false);
    if (failure.empty()) {
      state_ = state::ready;
      up_ = true;
      backoff_.reset();
      if (quiet) sdk_log(log_category::cluster, log_level::info, "Redis connected again", {{"where", where_}});
      quiet = false;
      on_ready(first);
      flush();
      co_await read_replies(generation_);
      if (state_ == state::closed) break;
      failure = last_failure_;
    } else {
      last_failure_ = failure;
      state_ = state::down;
      fail_all(waiting_, unavailable_reason::not_connected, failure);
    }
    sdk_log(log_category::cluster, quiet ? log_level::debug : log_level::warn, "Redis connection failed; trying again",
            {{"where", where_}, {"error", failure}});
    quiet = true;
    retry_timer_.expires_after(backoff_.next());
    co_await retry_timer_.async_wait(as_tuple_awaitable);
  }
}

asio::awaitable<void> link::read_replies(std::uint64_t generation) {
  for (;;) {
    auto [ec, n] = co_await socket_.async_read_some(asio::buffer(read_buffer_), as_tuple_awaitable);
    if (generation != generation_ || state_ != state::ready) co_return;
    if (ec) {
      drop(unavailable_reason::connection_lost, "connection lost: " + ec.message());
      co_return;
    }
    try {
      replies_->feed(std::string_view(read_buffer_.data(), n));
      while (generation == generation_) {
        auto r = replies_->next();
        if (!r) break;
        deliver(std::move(*r));
      }
    } catch (const protocol_error& e) {
      drop(unavailable_reason::connection_lost, e.what());
    }
    if (generation != generation_) co_return;
  }
}

void link::deliver(reply r) {
  if (take_push(r)) return;
  if (sent_.empty()) {
    drop(unavailable_reason::connection_lost, "a reply that no command asked for: " + r.describe());
    return;
  }
  auto& p = sent_.front();
  p.got.push_back(std::move(r));
  if (p.got.size() < p.replies) return;
  auto done = std::move(p);
  sent_.pop_front();
  finish(done, nullptr);
}

void link::flush() {
  if (writing_ || state_ != state::ready || waiting_.empty()) return;
  write_buffer_.clear();
  while (!waiting_.empty() && (write_buffer_.empty() || write_buffer_.size() + waiting_.front().wire.size() <= write_batch)) {
    auto& p = waiting_.front();
    write_buffer_ += p.wire;
    unwritten_ -= p.wire.size();
    std::string().swap(p.wire);
    sent_.push_back(std::move(p));
    waiting_.pop_front();
  }
  writing_ = true;
  asio::async_write(socket_, asio::buffer(write_buffer_),
                    [self = shared_from_this(), generation = generation_](boost::system::error_code ec, std::size_t) {
                      self->writing_ = false;
                      if (self->write_buffer_.capacity() > 4 * write_batch) std::string().swap(self->write_buffer_);
                      if (generation == self->generation_ && ec)
                        self->drop(unavailable_reason::connection_lost, "cannot write: " + ec.message());
                      self->flush();
                    });
}

void link::drop(unavailable_reason reason, const std::string& why) {
  if (state_ != state::ready) return;
  state_ = state::down;
  up_ = false;
  ++generation_;
  last_failure_ = why;
  boost::system::error_code ignored;
  socket_.close(ignored);
  fail_all(sent_, reason, why);
  fail_all(waiting_, reason, why);
}

void link::shut() {
  if (state_ == state::closed) return;
  state_ = state::closed;
  up_ = false;
  ++generation_;
  boost::system::error_code ignored;
  socket_.close(ignored);
  resolver_.cancel();
  retry_timer_.cancel();
  watchdog_.cancel();
  fail_all(sent_, unavailable_reason::closed, "the connection is closed");
  fail_all(waiting_, unavailable_reason::closed, "the connection is closed");
  on_closed();
}

// The watchdog sleeps until the oldest command's deadline. Deadlines grow in
// the order commands are queued, so the oldest is sent_'s front, else
// waiting_'s: a command queued later never needs the timer sooner, and one
// answered early leaves the timer to wake once for nothing.
void link::watch() {
  if (watchdog_armed_ || state_ == state::closed) return;
  const auto* oldest = !sent_.empty() ? &sent_.front() : !waiting_.empty() ? &waiting_.front() : nullptr;
  if (!oldest) return;
  watchdog_armed_ = true;
  watchdog_.expires_at(oldest->deadline);
  watchdog_.async_wait([self = shared_from_this()](boost::system::error_code) {
    self->watchdog_armed_ = false;
    if (self->state_ == state::closed) return;
    const auto now = clock::now();
    const auto limit = std::to_string(self->cfg_.command_timeout.count()) + " ms";
    if (!self->sent_.empty() && self->sent_.front().deadline <= now) {
      self->drop(unavailable_reason::timed_out, "no reply within " + limit);
    }
    // Not written yet (during the first attempt): they can go alone.
    while (!self->waiting_.empty() && self->waiting_.front().deadline <= now) {
      auto p = std::move(self->waiting_.front());
      self->waiting_.pop_front();
      self->unwritten_ -= p.wire.size();
      self->finish(p, std::make_exception_ptr(unavailable(unavailable_reason::timed_out,
                                                          self->where_ + ": not connected within " + limit)));
    }
    self->watch();
  });
}

void link::fail_all(std::deque<pending_command>& queue, unavailable_reason reason, const std::string& why) {
  auto failed = std::move(queue);
  queue.clear();
  for (auto& p : failed) {
    unwritten_ -= p.wire.size();  // empty once written
    finish(p, std::make_exception_ptr(unavailable(reason, where_ + ": " + why)));
  }
}

void link::finish(pending_command& p, std::exception_ptr error) {
  in_flight_ -= p.replies;
  if (!p.done) {
    if (error) return note_lost(error);
    for (const auto& r : p.got)
      if (r.is_error())
        sdk_log(log_category::cluster, log_level::warn, "a Redis command sent without waiting failed",
                {{"where", where_}, {"command", p.name}, {"error", r.error_message()}});
    return;
  }
  auto work = p.work ? std::move(p.work) : asio::any_io_executor(strand_);
  asio::post(work, [done = std::move(p.done), error, got = std::move(p.got)]() mutable {
    std::move(done)(error, std::move(got));
  });
}

// Fire-and-forget commands lost while Redis is away could be many (one per
// streamed event): one line a second says how many.
void link::note_lost(std::exception_ptr error) {
  ++lost_;
  const auto now = clock::now();
  if (now - last_lost_log_ < std::chrono::seconds(1)) return;
  last_lost_log_ = now;
  std::string why;
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    why = e.what();
  }
  sdk_log(log_category::cluster, log_level::warn, "Redis commands sent without waiting were lost",
          {{"where", where_}, {"lost", std::exchange(lost_, 0)}, {"error", why}});
}

}  // namespace mcp::detail::redis
