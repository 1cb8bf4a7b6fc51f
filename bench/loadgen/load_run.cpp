#include "load_run.hpp"

#include "proc_stats.hpp"

#include <boost/system/system_error.hpp>

#include <algorithm>

namespace loadgen {

namespace {

constexpr std::size_t kept_error_samples = 5;

double percentile_us(std::vector<std::chrono::nanoseconds> sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(rank), sorted.end());
  return static_cast<double>(sorted[rank].count()) / 1000.0;
}

}  // namespace

std::string describe(const std::exception& e) {
  if (const auto* system = dynamic_cast<const boost::system::system_error*>(&e)) return system->code().message();
  return e.what();
}

load_run::load_run(asio::any_io_executor ex, load_limits limits, pid_t server)
    : limits_(limits), server_(server), window_timer_(ex), deadline_timer_(ex) {}

void load_run::on_deadline(std::function<void()> abort) { abort_ = std::move(abort); }

void load_run::start() {
  if (limits_.warmup.count() == 0) {
    begin_window();
    return;
  }
  phase_ = phase::warmup;
  window_timer_.expires_after(limits_.warmup);
  window_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) begin_window();
  });
}

void load_run::begin_window() {
  phase_ = phase::measuring;
  if (server_) server_cpu_start_ = process_cpu_time(server_);
  for (auto& w : watched_) w.start = process_cpu_time(w.pid);
  own_cpu_start_ = own_cpu_time();
  window_start_ = clock::now();
  window_timer_.expires_after(limits_.duration);
  window_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) end_window();
  });
}

void load_run::end_window() {
  if (phase_ != phase::measuring) return;
  window_end_ = clock::now();
  own_cpu_end_ = own_cpu_time();
  if (server_) server_cpu_end_ = process_cpu_time(server_);
  for (auto& w : watched_) w.end = process_cpu_time(w.pid);
  phase_ = phase::draining;
  window_timer_.cancel();
  deadline_timer_.expires_after(limits_.grace);
  deadline_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec && abort_) abort_();
  });
}

void load_run::replied(clock::time_point sent_at) {
  ++checked_;
  if (phase_ != phase::measuring) return;
  latencies_.push_back(clock::now() - sent_at);
  if (++measured_ >= limits_.max_count) end_window();
}

void load_run::failed(std::string problem, std::uint64_t count, bool was_checked) {
  errors_ += count;
  if (was_checked) checked_ += count;
  if (error_samples_.size() < kept_error_samples) error_samples_.push_back(std::move(problem));
}

void load_run::worker_finished() {
  if (--workers_ > 0) return;
  if (phase_ == phase::warmup) begin_window();  // every worker gave up during the warm-up
  end_window();
  phase_ = phase::over;
  window_timer_.cancel();
  deadline_timer_.cancel();
}

run_result load_run::result() const {
  run_result r;
  r.sent = sent_;
  r.checked = checked_;
  r.errors = errors_;
  r.error_samples = error_samples_;
  r.measured = measured_;
  r.seconds = std::chrono::duration<double>(window_end_ - window_start_).count();
  r.p50_us = percentile_us(latencies_, 0.50);
  r.p99_us = percentile_us(latencies_, 0.99);
  if (server_) r.server_cpu_us = static_cast<double>((server_cpu_end_ - server_cpu_start_).count());
  r.loadgen_cpu_us = static_cast<double>((own_cpu_end_ - own_cpu_start_).count());
  const double count = measured_ > 0 ? static_cast<double>(measured_) : 1.0;
  for (const auto& w : watched_) {
    const auto name = "cpu_us_each_" + w.name;
    const double each = static_cast<double>((w.end - w.start).count()) / count;
    const auto same = std::find_if(r.extra.begin(), r.extra.end(), [&](const auto& e) { return e.first == name; });
    if (same == r.extra.end())
      r.extra.emplace_back(name, each);
    else
      same->second += each;
  }
  return r;
}

}  // namespace loadgen
