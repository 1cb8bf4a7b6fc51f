#pragma once
// One TCP link to Redis, shared by a connection and a subscriber: it
// connects (dial.hpp) and reconnects with backoff, queues and writes
// commands, matches replies to them in order, and keeps their deadlines.
// Everything runs on the link's strand; submit() and close() may be called
// from any thread.
//
// States: connecting (an attempt is under way), ready, down (waiting to try
// again), closed. Commands are taken while ready, and during the very first
// attempt (so that a link can be used as soon as it is made); in any other
// state they fail at once as unavailable: nothing queues while Redis is away.
//
// A command whose reply does not come within config::command_timeout fails,
// and so does the link: every command on it fails as unavailable and a new
// link is dialled (a Redis that does not answer its oldest command is stuck
// or out of reach, and a reply that comes late must not be taken for another
// command's).
//
// Bounds: at most config::max_in_flight commands queued or awaiting replies,
// and config::max_unwritten_bytes not yet written; past either, a command
// fails at once as unavailable (overloaded) instead of waiting for room.

#include "backoff.hpp"
#include "config.hpp"
#include "errors.hpp"
#include "wire.hpp"

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/execution/outstanding_work.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/prefer.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace mcp::detail::redis {

namespace asio = boost::asio;

/// How a command's replies (or its failure) reach whoever waits for them.
using reply_handler = asio::any_completion_handler<void(std::exception_ptr, std::vector<reply>)>;

/// Commands written together, answered by `replies` replies in order.
struct pending_command {
  // Not an aggregate: g++ 12 destroys aggregate temporaries of a suspending
  // expression twice (docs/compilers.md).
  pending_command() = default;

  std::string wire;           ///< formatted, until it is written
  std::size_t replies = 1;    ///< how many replies answer it
  std::vector<reply> got;     ///< the replies so far
  reply_handler done;         ///< empty for fire-and-forget
  asio::any_io_executor work; ///< where `done` runs; keeps that executor's work count up
  std::string name;           ///< the command's name, for logging a fire-and-forget failure
  std::chrono::steady_clock::time_point deadline{};

  /// Sets `done`. (Boost 1.81's any_completion_handler move assignment wraps
  /// the handler in itself until the stack overflows; a swap is safe.)
  template <class Handler>
  void set_done(Handler&& h) {
    reply_handler(std::forward<Handler>(h)).swap(done);
  }
};

/// Waits for the `count` replies of the commands in `wire`, which `enqueue`
/// is given (as a pending_command) to queue; resumes on the awaiting
/// coroutine's executor, or throws unavailable. Call it from a plain
/// function, not inside a co_await expression: `enqueue` is a lambda, and
/// g++ 12 corrupts a lambda made inside a co_await expression.
template <class Enqueue>
asio::awaitable<std::vector<reply>> await_replies(std::string wire, std::size_t count, Enqueue enqueue) {
  return asio::async_initiate<decltype(asio::use_awaitable), void(std::exception_ptr, std::vector<reply>)>(
      [enqueue = std::move(enqueue)](auto handler, std::string wire, std::size_t count) mutable {
        pending_command p;
        p.wire = std::move(wire);
        p.replies = count;
        p.work = asio::prefer(asio::get_associated_executor(handler), asio::execution::outstanding_work.tracked);
        p.set_done(std::move(handler));
        enqueue(std::move(p));
      },
      asio::use_awaitable, std::move(wire), count);
}

class link : public std::enable_shared_from_this<link> {
 public:
  link(asio::any_io_executor ex, config cfg);
  virtual ~link() = default;
  link(const link&) = delete;
  link& operator=(const link&) = delete;

  /// Starts dialling; call once, after construction.
  void start();
  /// Queues a command (from any thread). `p.done` is called, on `p.work`,
  /// with the replies or with an unavailable exception.
  void submit(pending_command p);
  /// Ends the link (from any thread): nothing is dialled again, and every
  /// queued command fails as unavailable (closed).
  void close();
  /// Whether the link is ready now (a hint: it may fail the next moment).
  bool connected() const noexcept { return up_.load(std::memory_order_relaxed); }
  const config& settings() const noexcept { return cfg_; }

 protected:
  // On the strand, for the subclass's hooks.
  asio::strand<asio::any_io_executor>& strand() noexcept { return strand_; }
  void submit_here(pending_command p);
  bool ready() const noexcept { return state_ == state::ready; }
  bool closed() const noexcept { return state_ == state::closed; }

  /// The link is ready (the greeting answered); `first` when it is the very
  /// first attempt's. Commands submitted here are written with (after) those
  /// already queued.
  virtual void on_ready(bool first) { (void)first; }
  /// A reply that may answer no command (a pub/sub message): true when taken.
  virtual bool take_push(reply& r) {
    (void)r;
    return false;
  }
  /// close() has run, on the strand.
  virtual void on_closed() {}

 private:
  enum class state { connecting, ready, down, closed };

  asio::awaitable<void> run();
  asio::awaitable<void> read_replies(std::uint64_t generation);
  void deliver(reply r);
  void flush();
  void drop(unavailable_reason reason, const std::string& why);
  void shut();
  void watch();
  // `why` says what happened, without where_ ("connection lost: End of file").
  void fail_all(std::deque<pending_command>& queue, unavailable_reason reason, const std::string& why);
  void finish(pending_command& p, std::exception_ptr error);
  void note_lost(std::exception_ptr error);

  config cfg_;
  std::string where_;  // "redis host:port", for messages
  asio::strand<asio::any_io_executor> strand_;
  asio::ip::tcp::socket socket_;
  asio::ip::tcp::resolver resolver_;
  asio::steady_timer retry_timer_;
  asio::steady_timer watchdog_;
  state state_ = state::connecting;
  bool first_attempt_ = true;
  std::atomic<bool> up_{false};
  std::uint64_t generation_ = 0;  // bumped when a link drops: late completions of the old one are ignored

  std::deque<pending_command> waiting_;  // not yet written
  std::deque<pending_command> sent_;     // written (or being written), awaiting replies
  std::size_t in_flight_ = 0;            // commands in both queues
  std::size_t unwritten_ = 0;            // bytes in waiting_
  std::string write_buffer_;
  bool writing_ = false;
  bool watchdog_armed_ = false;
  std::string last_failure_;  // why the link is down (without where_), for the commands refused meanwhile
  std::unique_ptr<decoder> replies_;
  std::vector<char> read_buffer_;
  backoff backoff_;
  std::size_t lost_ = 0;  // fire-and-forget commands lost since the last line about them
  std::chrono::steady_clock::time_point last_lost_log_{};
};

}  // namespace mcp::detail::redis
