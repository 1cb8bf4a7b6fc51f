#include "terminal.hpp"

#include "console.hpp"

#include <mcp/error.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

#include <algorithm>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

namespace caduceus {

namespace asio = boost::asio;

// Reads stdin only while a question waits for input, in slices of waiting
// for it (console.hpp) so that it stops within one slice when told to.
struct terminal::reader : std::enable_shared_from_this<reader> {
  static constexpr std::chrono::milliseconds slice{100};

  asio::any_io_executor ex;
  terminal* owner = nullptr;  // touched on the executor only; null once the terminal is gone
  std::mutex mutex;
  std::condition_variable changed;
  bool want = false;  // a question waits for input
  bool stop = false;
  std::thread thread;

  void start() {
    thread = std::thread([self = shared_from_this()] { self->run(); });
  }

  void ask_for_input() {
    const std::lock_guard lock(mutex);
    want = true;
    changed.notify_one();
  }

  void withdraw() {
    const std::lock_guard lock(mutex);
    want = false;
  }

  void finish() {
    {
      const std::lock_guard lock(mutex);
      stop = true;
      changed.notify_one();
    }
    interrupt_stdin();  // a read that waits (a Windows console's) ends
    if (thread.joinable()) thread.join();
  }

  void run() {
    char buffer[4096];
    for (;;) {
      {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return want || stop; });
        if (stop) return;
      }
      const bool ready = wait_for_stdin(slice);
      {
        const std::lock_guard lock(mutex);
        if (stop) return;
        if (!want || !ready) continue;
      }
      const auto n = read_stdin(buffer, sizeof buffer);
      if (n < 0) continue;
      const bool ended = n == 0;
      std::string chunk = ended ? std::string() : std::string(buffer, static_cast<std::size_t>(n));
      {
        const std::lock_guard lock(mutex);
        want = false;
      }
      asio::post(ex, [self = shared_from_this(), chunk = std::move(chunk), ended]() mutable {
        if (self->owner) self->owner->take_input(std::move(chunk), ended);
      });
      if (ended) return;
    }
  }
};

struct terminal::waiter {
  explicit waiter(asio::any_io_executor ex) : timer(std::move(ex)) {}
  asio::steady_timer timer;
  bool handed = false;  // the terminal is this waiter's now
};

terminal::terminal(asio::any_io_executor ex, progress_bar& bar, std::chrono::milliseconds answer_limit)
    : ex_(ex),
      bar_(bar),
      answer_limit_(answer_limit),
      interactive_(stdin_is_terminal()),
      reader_(std::make_shared<reader>()),
      wake_(ex) {
  reader_->ex = ex;
  reader_->owner = this;
  reader_->start();
}

terminal::~terminal() { stop(); }

void terminal::stop() {
  reader_->owner = nullptr;
  reader_->finish();
  input_ended_ = true;
  wake_.cancel();
}

terminal::dialog::dialog(dialog&& other) noexcept : owner_(std::move(other.owner_)) {}

terminal::dialog::~dialog() {
  if (owner_) owner_->close_dialog();
}

asio::awaitable<terminal::dialog> terminal::open_dialog() {
  if (!busy_) {
    busy_ = true;
    interrupted_ = false;
    bar_.hold(true);
    co_return dialog(shared_from_this());
  }
  auto me = std::make_shared<waiter>(ex_);
  waiting_.push_back(me);
  me->timer.expires_at(asio::steady_timer::time_point::max());
  co_await me->timer.async_wait(asio::as_tuple(asio::use_awaitable));
  if (me->handed) co_return dialog(shared_from_this());
  std::erase(waiting_, me);  // cancelled while waiting its turn
  throw mcp::error(asio::error::operation_aborted);
}

void terminal::close_dialog() {
  interrupted_ = false;
  if (!waiting_.empty()) {
    auto next = waiting_.front();
    waiting_.pop_front();
    next->handed = true;
    next->timer.cancel();
    return;
  }
  busy_ = false;
  reader_->withdraw();
  bar_.hold(false);
}

void terminal::say(std::string_view text) {
  std::cout.flush();
  std::cerr << text << std::flush;
}

void terminal::take_input(std::string chunk, bool ended) {
  buffer_ += chunk;
  if (ended) input_ended_ = true;
  wake_.cancel();
}

asio::awaitable<reply> terminal::ask(std::string_view prompt) {
  say(prompt);
  for (;;) {
    if (interrupted_) {
      interrupted_ = false;
      reader_->withdraw();
      say("\n");  // the terminal shows ^C, and no line break
      co_return reply{reply::kind::interrupted, {}};
    }
    if (const auto end = buffer_.find('\n'); end != std::string::npos) {
      std::string line = buffer_.substr(0, end);
      buffer_.erase(0, end + 1);
      if (line.ends_with('\r')) line.pop_back();
      if (!interactive_) say(line + "\n");  // piped answers: show what was answered
      co_return reply{reply::kind::line, std::move(line)};
    }
    if (input_ended_) {
      if (!buffer_.empty()) {  // a last line without its newline
        std::string line = std::move(buffer_);
        buffer_.clear();
        if (!interactive_) say(line + "\n");
        co_return reply{reply::kind::line, std::move(line)};
      }
      say("\n");
      co_return reply{reply::kind::end, {}};
    }
    reader_->ask_for_input();
    if (interactive_)
      wake_.expires_at(asio::steady_timer::time_point::max());
    else
      wake_.expires_after(answer_limit_);  // piped input that never comes must not hold us up forever
    const auto [ec] = co_await wake_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (!ec) {
      input_ended_ = true;  // no answer within the time: as good as the end
      continue;
    }
    const auto state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none) {
      reader_->withdraw();
      throw mcp::error(asio::error::operation_aborted);
    }
  }
}

bool terminal::interrupt() {
  if (!busy_) return false;
  interrupted_ = true;
  wake_.cancel();
  return true;
}

}  // namespace caduceus
