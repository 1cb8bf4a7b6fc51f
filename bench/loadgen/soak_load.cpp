// The soak run: echo calls at a steady rate with churn, cancellations,
// resumed streams, slow clients and bad input beside them, for --duration,
// while the server's resident memory and open file descriptors are sampled
// every --sample-every. Prints one JSON line: the samples, their slope over
// the second half, what went as expected, what was refused as it should be,
// and every error the input did not ask for, by kind.

#include "load_run.hpp"
#include "proc_stats.hpp"
#include "scenarios.hpp"
#include "soak_actions.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <filesystem>
#include <string>

namespace loadgen {

namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

// How often each kind of trouble comes (the echo calls make the rate).
struct chaos_plan {
  chaos_kind kind;
  std::chrono::milliseconds every;
};
constexpr chaos_plan chaos[] = {
    {chaos_kind::churn, 50ms},        {chaos_kind::cancel, 200ms},      {chaos_kind::resume, 200ms},
    {chaos_kind::slow_writer, 100ms}, {chaos_kind::slow_reader, 100ms}, {chaos_kind::bad_input, 25ms},
};
constexpr auto end_grace = 15s;  // for the actions under way when the run stops

struct sample {
  double seconds;
  long rss;
  long fds;
  std::uint64_t requests;
};

long open_fds(pid_t pid) {
  long count = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd"))
    ++count;
  return count;
}

asio::awaitable<void> sample_every(soak_context& ctx, pid_t pid, std::chrono::milliseconds period,
                                   clock::time_point start, std::vector<sample>& samples) {
  asio::steady_timer timer(ctx.ex);
  for (auto next = start; !ctx.stopping; next += period) {
    const std::chrono::duration<double> t = clock::now() - start;
    samples.push_back({t.count(), resident_bytes(pid), open_fds(pid), ctx.tally.requests});
    timer.expires_at(next + period);
    co_await timer.async_wait(asio::use_awaitable);
  }
}

// Least-squares slope, per minute, of the figure `of` over the samples of the second half.
template <typename Figure>
double slope_per_minute_second_half(const std::vector<sample>& samples, double total_seconds, Figure of) {
  double n = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& s : samples) {
    if (s.seconds < total_seconds / 2) continue;
    const double x = s.seconds / 60, y = static_cast<double>(of(s));
    n += 1, sx += x, sy += y, sxx += x * x, sxy += x * y;
  }
  if (n < 2 || n * sxx - sx * sx == 0) return 0;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

json::object counts(const std::map<std::string, std::uint64_t, std::less<>>& map) {
  json::object out;
  for (const auto& [key, value] : map) out[key] = value;
  return out;
}

}  // namespace

std::string run_soak(const options& o) {
  asio::io_context io(1);
  soak_context ctx;
  ctx.ex = io.get_executor();
  ctx.target = parse_http_url(o.url);
  std::vector<sample> samples;
  const auto start = clock::now();
  const auto interval = std::chrono::microseconds(static_cast<long long>(1e6 * o.connections / o.rate));
  for (int i = 0; i < o.connections; ++i) asio::co_spawn(io, echo_worker(ctx, interval), asio::detached);
  for (const auto& plan : chaos) asio::co_spawn(io, chaos_worker(ctx, plan.kind, plan.every), asio::detached);
  asio::co_spawn(io, sample_every(ctx, o.server_pid, o.sample_every, start, samples), asio::detached);

  asio::steady_timer stop(io, start + o.limits.duration);
  stop.async_wait([&](boost::system::error_code) { ctx.stopping = true; });
  asio::steady_timer hung(io, start + o.limits.duration + end_grace);
  hung.async_wait([&](boost::system::error_code) {
    for (auto* connection : ctx.keep_alive) connection->close();
  });
  ctx.on_idle = [&] {
    stop.cancel();
    hung.cancel();
  };
  const auto cpu_before = process_cpu_time(o.server_pid);
  // Runs until every worker has ended (the raw exchanges have deadlines of their own).
  io.run_for(o.limits.duration + end_grace + 5s);
  const std::chrono::duration<double> took = clock::now() - start;
  const auto server_cpu = process_cpu_time(o.server_pid) - cpu_before;

  const double seconds = std::chrono::duration<double>(o.limits.duration).count();
  json::object result;
  result["scenario"] = "soak";
  result["seconds"] = took.count();
  result["rate_target"] = o.rate;
  result["requests"] = ctx.tally.requests;
  result["requests_per_s"] = static_cast<double>(ctx.tally.requests) / seconds;
  result["server_cpu_share"] = std::chrono::duration<double>(server_cpu).count() / took.count();
  result["done"] = counts(ctx.tally.done);
  result["refused_as_expected"] = counts(ctx.tally.refused);
  result["unexpected_errors"] = counts(ctx.tally.unexpected);
  json::array problems;
  for (const auto& text : ctx.tally.error_samples) problems.emplace_back(text.substr(0, 300));
  result["error_samples"] = std::move(problems);
  json::array rows;
  for (const auto& s : samples) rows.emplace_back(json::array{s.seconds, s.rss, s.fds, s.requests});
  result["samples"] = std::move(rows);  // [seconds, rss bytes, open fds, requests sent so far]
  result["rss_slope_per_min"] = slope_per_minute_second_half(samples, seconds, [](const sample& s) { return s.rss; });
  result["fds_slope_per_min"] = slope_per_minute_second_half(samples, seconds, [](const sample& s) { return s.fds; });
  return json::serialize(result);
}

}  // namespace loadgen
