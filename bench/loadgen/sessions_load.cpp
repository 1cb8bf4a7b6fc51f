// Opens sessions (initialize + initialized) as fast as --connections
// keep-alive connections allow, and leaves them open and idle: the rate, and
// the server's resident memory per idle session.

#include "http_connection.hpp"
#include "messages.hpp"
#include "proc_stats.hpp"
#include "scenarios.hpp"
#include "session_opener.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <memory>
#include <thread>

namespace loadgen {

namespace {

// Before reading the resident memory: lets the server finish what the last
// replies started (and a garbage-collected server collect).
constexpr std::chrono::milliseconds settle{500};

asio::awaitable<void> open_sessions(http_connection& connection, const http_mode& mode, load_run& run,
                                    request_ids& ids, std::uint64_t& to_open, std::uint64_t& opened) {
  bool awaiting_reply = false;
  try {
    co_await connection.connect();
    while (run.issuing() && to_open > 0) {
      --to_open;
      run.sent();
      awaiting_reply = true;
      const auto sent_at = clock::now();
      const opened_session session = co_await open_session(connection, mode, ids.next());
      awaiting_reply = false;
      if (session.id.empty()) {
        run.failed("initialize: " + session.problem);
        continue;
      }
      ++opened;
      run.replied(sent_at);
    }
  } catch (const std::exception& e) {
    run.failed(std::string(awaiting_reply ? "no reply: " : "connection failed: ") + describe(e), 1, false);
  }
  run.worker_finished();
}

// Runs open_sessions for `count` sessions on `connections` connections.
run_result open_on_connections(const options& o, load_limits limits, std::uint64_t count, request_ids& ids,
                               std::uint64_t& opened) {
  asio::io_context io;
  const http_target target = parse_http_url(o.url);
  const http_mode mode = parse_http_mode(o.mode);
  limits.max_count = count;
  load_run run(io.get_executor(), limits, o.server_pid);
  for (const auto& [name, pid] : o.cpu_pids) run.watch_cpu(name, pid);
  std::vector<std::unique_ptr<http_connection>> connections;
  for (int i = 0; i < o.connections; ++i) connections.push_back(std::make_unique<http_connection>(io.get_executor(), target));
  run.on_deadline([&] {
    for (auto& connection : connections) connection->close();
  });
  run.start();
  std::uint64_t to_open = count;
  for (auto& connection : connections) {
    run.worker_started();
    asio::co_spawn(io, open_sessions(*connection, mode, run, ids, to_open, opened), asio::detached);
  }
  io.run();
  return run.result();
}

}  // namespace

run_result run_sessions(const options& o) {
  request_ids ids;
  // One session first, alone and not counted: what a server allocates once
  // (on its first session) is not memory per session.
  load_limits limits = o.limits;
  limits.warmup = std::chrono::milliseconds(0);  // every session counts
  std::uint64_t first_opened = 0;
  options alone = o;
  alone.connections = 1;
  const run_result first = open_on_connections(alone, limits, 1, ids, first_opened);
  if (first_opened != 1) return first;
  std::this_thread::sleep_for(settle);
  const long before = resident_bytes(o.server_pid);

  std::uint64_t opened = 0;
  run_result result = open_on_connections(o, limits, o.limits.max_count - 1, ids, opened);
  result.sent += first.sent;
  result.checked += first.checked;
  std::this_thread::sleep_for(settle);
  const long after = resident_bytes(o.server_pid);
  result.extra.emplace_back("sessions_open", static_cast<double>(opened + 1));
  result.extra.emplace_back("rss_before_bytes", static_cast<double>(before));
  result.extra.emplace_back("rss_after_bytes", static_cast<double>(after));
  if (opened > 0)
    result.extra.emplace_back("rss_bytes_per_session", static_cast<double>(after - before) / static_cast<double>(opened));
  return result;
}

}  // namespace loadgen
