#pragma once
// The bookkeeping of one load run, whatever drives it: a warm-up, then a
// measured window bounded in time and in count, then a grace period for
// the replies still in flight, after which whatever is left is aborted.
// Counts what was sent, checked and wrong, the latencies and the CPU time of
// the server and of the generator over the window. One thread.

#include "run_result.hpp"

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/steady_timer.hpp>

#include <sys/types.h>

#include <chrono>
#include <exception>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace loadgen {

namespace asio = boost::asio;
using clock = std::chrono::steady_clock;

struct load_limits {
  std::chrono::milliseconds warmup{0};
  std::chrono::milliseconds duration{1000};  ///< the measured window lasts at most this
  std::uint64_t max_count = UINT64_MAX;      ///< and ends at this many measured replies
  std::chrono::milliseconds grace{5000};     ///< for replies in flight after the window
};

/// What went wrong, for an error sample: a system error's message without
/// the source location Boost adds to what().
std::string describe(const std::exception& e);

class load_run {
 public:
  /// `server`: the process whose CPU time is measured (0: none).
  load_run(asio::any_io_executor ex, load_limits limits, pid_t server);
  /// Also measures the CPU time of `pid` over the window, as cpu_us_each_NAME.
  void watch_cpu(std::string name, pid_t pid) { watched_.push_back({std::move(name), pid, {}, {}}); }

  /// Starts the warm-up (the measured window at once when there is none).
  void start();
  /// Called when the grace period is over: abort what is still running.
  void on_deadline(std::function<void()> abort);

  /// May a worker send another request?
  bool issuing() const { return phase_ == phase::warmup || phase_ == phase::measuring; }

  void sent(std::uint64_t count = 1) { sent_ += count; }
  /// A reply that passed its check, to a request sent at `sent_at`.
  void replied(clock::time_point sent_at);
  /// A reply that passed its check, outside the measured window (a handshake).
  void replied_outside_window() { ++checked_; }
  /// A reply that failed its check, or a request that will get none.
  void failed(std::string problem, std::uint64_t count = 1, bool was_checked = true);

  /// Workers say when they begin and end; when the last ends, the run does.
  void worker_started() { ++workers_; }
  void worker_finished();

  run_result result() const;

 private:
  enum class phase { idle, warmup, measuring, draining, over };
  void begin_window();
  void end_window();

  load_limits limits_;
  pid_t server_;
  asio::steady_timer window_timer_;
  asio::steady_timer deadline_timer_;
  std::function<void()> abort_;
  phase phase_ = phase::idle;
  int workers_ = 0;

  std::uint64_t sent_ = 0, checked_ = 0, errors_ = 0, measured_ = 0;
  std::vector<std::string> error_samples_;
  std::vector<std::chrono::nanoseconds> latencies_;
  clock::time_point window_start_, window_end_;
  std::chrono::microseconds server_cpu_start_{}, server_cpu_end_{}, own_cpu_start_{}, own_cpu_end_{};
  struct watched_process {
    std::string name;
    pid_t pid;
    std::chrono::microseconds start, end;
  };
  std::vector<watched_process> watched_;
};

}  // namespace loadgen
