// The listen scenario (2026-07-28): holds --connections subscriptions/listen
// streams open, each on a keep-alive connection of its own, and reads the
// server's resident memory and descriptors per open stream; then calls
// toggle_bonus --max-count times (0: none, for a server without that tool)
// over one more connection and times how long each change takes to reach
// every listener, with the server's CPU time per notification delivered.
// Every listener must hear each change exactly once, well formed. The whole
// run is bounded by --duration (and 5 s more for the last change).

#include "listen_stream.hpp"
#include "modern_messages.hpp"
#include "proc_stats.hpp"
#include "scenarios.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>

namespace loadgen {

namespace {

namespace http = boost::beast::http;
namespace json = boost::json;
using namespace std::chrono_literals;

constexpr auto settle = 500ms;          // before reading the resident memory, as the sessions scenario does
constexpr auto change_timeout = 5s;     // for one change to reach every listener
constexpr std::size_t openers = 64;     // streams being opened at once
constexpr std::size_t spare_fds = 64;   // the generator's own descriptors besides the streams
constexpr std::size_t max_samples = 10;

long open_fds(pid_t pid) {
  long count = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/fd"))
    ++count;
  return count;
}

// Every stream is a descriptor here too: the soft limit goes up to the hard
// one when it is too low.
rlim_t allow_open_files(std::size_t streams) {
  rlimit limit{};
  getrlimit(RLIMIT_NOFILE, &limit);
  const rlim_t needed = streams + spare_fds;
  if (limit.rlim_cur >= needed) return limit.rlim_cur;
  if (limit.rlim_max < needed)
    throw std::runtime_error("RLIMIT_NOFILE's hard limit " + std::to_string(limit.rlim_max) + " is below the " +
                             std::to_string(needed) + " descriptors the streams need");
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0) throw std::runtime_error("cannot raise RLIMIT_NOFILE");
  return limit.rlim_cur;
}

// Waits until a number of things are done, or a time has passed. One thread.
class countdown {
 public:
  explicit countdown(asio::any_io_executor ex) : timer_(ex) {}
  void expect(std::size_t count) { left_ = count; }
  void done() {
    if (left_ > 0 && --left_ == 0) timer_.cancel();
  }
  std::size_t left() const { return left_; }
  /// True when everything was done in time.
  asio::awaitable<bool> wait(clock::duration limit) {
    if (left_ == 0) co_return true;
    timer_.expires_after(limit);
    boost::system::error_code ignored;
    co_await timer_.async_wait(asio::redirect_error(asio::use_awaitable, ignored));
    co_return left_ == 0;
  }

 private:
  asio::steady_timer timer_;
  std::size_t left_ = 0;
};

double ms(clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

class listen_load {
 public:
  listen_load(asio::any_io_executor ex, const options& o)
      : ex_(ex),
        o_(o),
        target_(parse_http_url(o.url)),
        ends_at_(clock::now() + o.limits.duration),
        opened_(ex),
        heard_(ex),
        toggler_(ex) {}

  asio::awaitable<void> run() {
    const auto count = static_cast<std::size_t>(o_.connections);
    for (std::size_t i = 0; i < count; ++i)
      streams_.push_back(std::make_unique<listen_stream>(ex_, target_, static_cast<std::int64_t>(i + 1)));
    // One stream first, alone and not counted: what a server allocates once
    // (on its first listener) is not memory per stream.
    if (co_await open_streams(0, 1)) {
      co_await pause(settle);
      const long rss_before = resident_bytes(o_.server_pid);
      const long fds_before = open_fds(o_.server_pid);
      if (co_await open_streams(1, count)) {
        co_await pause(settle);
        const long rss_after = resident_bytes(o_.server_pid);
        const long fds_after = open_fds(o_.server_pid);
        const double counted = count > 1 ? static_cast<double>(count - 1) : 1.0;
        extra("streams_open", static_cast<double>(count));
        extra("rss_before_bytes", static_cast<double>(rss_before));
        extra("rss_after_bytes", static_cast<double>(rss_after));
        extra("rss_bytes_per_stream", static_cast<double>(rss_after - rss_before) / counted);
        extra("server_fds_before", static_cast<double>(fds_before));
        extra("server_fds_after", static_cast<double>(fds_after));
        extra("server_fds_per_stream", static_cast<double>(fds_after - fds_before) / counted);
        extra("loadgen_fds", static_cast<double>(open_fds(getpid())));
        if (o_.limits.max_count > 0) co_await fan_out();
      }
    }
    for (auto& stream : streams_) stream->close();
    close_toggler();
  }

  /// Called when --duration is over: whatever is still waiting fails.
  void abort() {
    fail("the run did not end within --duration");
    for (auto& stream : streams_) stream->close();
    close_toggler();
  }

  run_result& result() { return result_; }

 private:
  void fail(std::string problem) {
    ++result_.errors;
    if (result_.error_samples.size() < max_samples) result_.error_samples.push_back(std::move(problem));
  }
  void extra(std::string name, double value) { result_.extra.emplace_back(std::move(name), value); }

  asio::awaitable<void> pause(clock::duration d) {
    asio::steady_timer timer(ex_);
    timer.expires_after(d);
    co_await timer.async_wait(asio::use_awaitable);
  }

  // Opens streams [from, to) on `openers` coroutines; true when all are
  // open and acknowledged.
  asio::awaitable<bool> open_streams(std::size_t from, std::size_t to) {
    next_to_open_ = from;
    opened_.expect(to - from);
    const std::size_t errors_before = result_.errors;
    for (std::size_t i = 0; i < std::min(openers, to - from); ++i)
      asio::co_spawn(ex_, open_each(to), asio::detached);
    if (!co_await opened_.wait(ends_at_ - clock::now())) {
      fail(std::to_string(opened_.left()) + " listen streams were not open in time");
      co_return false;
    }
    co_return result_.errors == errors_before;
  }

  asio::awaitable<void> open_each(std::size_t to) {
    while (next_to_open_ < to) {
      auto& stream = *streams_[next_to_open_++];
      ++result_.sent;
      try {
        auto problem = co_await stream.open();
        if (problem.empty()) {
          ++result_.checked;
          asio::co_spawn(ex_, stream.listen([this](std::size_t count) { on_heard(count); }), asio::detached);
        } else {
          fail(std::move(problem));
        }
      } catch (const std::exception& e) {
        fail("subscriptions/listen: " + describe(e));
      }
      opened_.done();
    }
  }

  void on_heard(std::size_t count) {
    if (count == change_) heard_.done();
  }

  asio::awaitable<void> fan_out() {
    try {
      co_await toggler_.async_connect(target_.endpoint, asio::use_awaitable);
      toggler_.set_option(asio::ip::tcp::no_delay(true));
    } catch (const std::exception& e) {
      fail("the toggling connection failed: " + describe(e));
      co_return;
    }
    const auto changes = std::min<std::uint64_t>(o_.limits.max_count, 1000);
    std::vector<double> last_ms, median_ms;
    const auto cpu_start = process_cpu_time(o_.server_pid);
    const auto own_start = own_cpu_time();
    const auto start = clock::now();
    while (change_ < changes && clock::now() < ends_at_) {
      ++change_;
      heard_.expect(streams_.size());
      const auto sent_at = clock::now();
      if (!co_await toggle()) break;
      if (!co_await heard_.wait(change_timeout)) {
        fail("change " + std::to_string(change_) + " reached " + std::to_string(streams_.size() - heard_.left()) +
             " of " + std::to_string(streams_.size()) + " listeners in " + std::to_string(change_timeout.count()) + " s");
        break;
      }
      std::vector<double> delays;
      for (const auto& stream : streams_) delays.push_back(ms(stream->arrivals()[change_ - 1] - sent_at));
      last_ms.push_back(*std::max_element(delays.begin(), delays.end()));
      median_ms.push_back(median_of(std::move(delays)));
    }
    const auto end = clock::now();
    const auto cpu = process_cpu_time(o_.server_pid) - cpu_start;
    result_.loadgen_cpu_us = static_cast<double>((own_cpu_time() - own_start).count());
    co_await pause(settle);  // for a duplicate still on its way
    for (const auto& stream : streams_) {
      if (!stream->problem().empty()) fail("stream " + std::to_string(stream->id()) + ": " + stream->problem());
      if (stream->arrivals().size() != change_)
        fail("stream " + std::to_string(stream->id()) + " heard " + std::to_string(stream->arrivals().size()) +
             " notifications of " + std::to_string(change_) + " changes");
      result_.measured += stream->arrivals().size();
    }
    result_.seconds = std::chrono::duration<double>(end - start).count();
    result_.server_cpu_us = static_cast<double>(cpu.count());
    extra("changes", static_cast<double>(last_ms.size()));
    if (last_ms.empty()) co_return;
    extra("fanout_last_ms_median", median_of(last_ms));
    extra("fanout_last_ms_max", *std::max_element(last_ms.begin(), last_ms.end()));
    extra("fanout_median_ms_median", median_of(median_ms));
    extra("fanout_median_ms_max", *std::max_element(median_ms.begin(), median_ms.end()));
    extra("server_cpu_us_per_notification", static_cast<double>(cpu.count()) /
                                                static_cast<double>(last_ms.size() * streams_.size()));
  }

  // Calls toggle_bonus and checks its answer: "bonus added" and "bonus
  // removed" in turn.
  asio::awaitable<bool> toggle() {
    const auto id = static_cast<std::int64_t>(streams_.size() + change_);
    const std::string request = modern_post(target_, "tools/call", "toggle_bonus", toggle_bonus_call(id));
    ++result_.sent;
    std::string problem;
    try {
      co_await asio::async_write(toggler_, asio::buffer(request), asio::use_awaitable);
      http::response_parser<http::string_body> parser;
      co_await http::async_read(toggler_, toggle_buffer_, parser, asio::use_awaitable);
      problem = check_toggle_reply(parser.get(), id);
    } catch (const std::exception& e) {
      problem = "no answer: " + describe(e);
    }
    if (!problem.empty()) {
      fail("toggle_bonus: " + problem);
      co_return false;
    }
    ++result_.checked;
    co_return true;
  }

  std::string check_toggle_reply(const http::response<http::string_body>& reply, std::int64_t id) {
    if (reply.result_int() != 200 || !reply[http::field::content_type].starts_with("application/json"))
      return "HTTP " + std::to_string(reply.result_int()) + " " + std::string(reply[http::field::content_type]);
    boost::system::error_code ec;
    const json::value message = json::parse(reply.body(), ec);
    const auto* object = message.if_object();
    const auto* answered = object ? object->if_contains("id") : nullptr;
    const auto* result = object ? object->if_contains("result") : nullptr;
    const auto* content = result && result->is_object() ? result->as_object().if_contains("content") : nullptr;
    const json::value* text = nullptr;
    if (content && content->is_array() && !content->as_array().empty() && content->as_array()[0].is_object())
      text = content->as_array()[0].as_object().if_contains("text");
    const char* expected = toggled_on_ ? "bonus removed" : "bonus added";
    if (ec || !answered || *answered != id || !text || *text != expected)
      return "expected \"" + std::string(expected) + "\", got " + reply.body().substr(0, 200);
    toggled_on_ = !toggled_on_;
    return {};
  }

  void close_toggler() {
    boost::system::error_code ignored;
    toggler_.close(ignored);
  }

  asio::any_io_executor ex_;
  const options& o_;
  http_target target_;
  clock::time_point ends_at_;  // --duration after the start: no stream opened or change made after it
  std::vector<std::unique_ptr<listen_stream>> streams_;
  std::size_t next_to_open_ = 0;
  countdown opened_;
  countdown heard_;
  std::size_t change_ = 0;  // the change under way, from 1
  asio::ip::tcp::socket toggler_;
  boost::beast::flat_buffer toggle_buffer_;
  bool toggled_on_ = false;  // the bonus tool is there (a fresh server has none)
  run_result result_;
};

}  // namespace

run_result run_listen(const options& o) {
  const rlim_t open_files = allow_open_files(static_cast<std::size_t>(o.connections));
  asio::io_context io;
  listen_load load(io.get_executor(), o);
  asio::steady_timer deadline(io);
  deadline.expires_after(o.limits.duration + change_timeout + 4 * settle);  // the last change and the pauses
  deadline.async_wait([&](boost::system::error_code ec) {
    if (!ec) load.abort();
  });
  asio::co_spawn(io, load.run(), [&](std::exception_ptr e) {
    deadline.cancel();
    if (e) std::rethrow_exception(e);  // the server gone: /proc has nothing to read
  });
  io.run();
  load.result().extra.emplace_back("loadgen_open_files_limit", static_cast<double>(open_files));
  return load.result();
}

}  // namespace loadgen
