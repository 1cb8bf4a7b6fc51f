// tools/call echo over a spawned server's stdin and stdout: up to --window
// requests in flight, written in batches as replies free room, every reply
// checked against the request it answers. The 2025 era opens a session with
// initialize first; the 2026-07-28 era (--era modern) sends every request
// with its envelope from the start.

#include "child_process.hpp"
#include "line_reader.hpp"
#include "messages.hpp"
#include "pipe_handshake.hpp"
#include "scenarios.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <unordered_map>

namespace loadgen {

namespace {

using pending_requests = std::unordered_map<std::int64_t, clock::time_point>;

// Checks one reply line against the pending request it names.
void check_line(std::string_view line, const options& o, pending_requests& pending, load_run& run) {
  const auto id = peek_id(line);
  const auto request = id ? pending.find(*id) : pending.end();
  if (request == pending.end()) {
    run.failed("a reply to no pending request: " + std::string(line.substr(0, 200)));
    return;
  }
  const clock::time_point sent_at = request->second;
  pending.erase(request);
  const auto check = o.modern_era ? check_modern_echo_reply : check_echo_reply;
  if (auto problem = check(line, *id, o.peer))
    run.failed(std::move(*problem));
  else
    run.replied(sent_at);
}

// Keeps up to --window requests in flight until the run stops issuing and
// every reply is in.
asio::awaitable<void> pump(child_process& child, line_reader& reader, const options& o, load_run& run,
                           request_ids& ids, pending_requests& pending) {
  std::string batch;
  for (;;) {
    batch.clear();
    while (run.issuing() && pending.size() < o.window) {
      const std::int64_t id = ids.next();
      batch += o.modern_era ? modern_echo_call(id) : echo_call(id);
      batch += '\n';
      pending.emplace(id, clock::now());
      run.sent();
    }
    if (!batch.empty()) co_await write_to(child, batch);
    if (pending.empty()) co_return;
    co_await reader.fill();
    while (const auto line = reader.pop_line()) check_line(*line, o, pending, run);
  }
}

asio::awaitable<void> pipeline(child_process& child, const options& o, load_run& run, request_ids& ids) {
  line_reader reader(child.output());
  pending_requests pending;
  bool handshaking = !o.modern_era;  // a 2026-07-28 server needs none
  try {
    std::string problem;
    if (handshaking) {
      run.sent();
      const pipe_handshake started = co_await handshake(child, reader, o.peer, ids.next());
      handshaking = false;
      problem = started.problem;
      if (problem.empty())
        run.replied_outside_window();
      else
        run.failed("initialize: " + problem);
    }
    if (problem.empty()) co_await pump(child, reader, o, run, ids, pending);
  } catch (const std::exception& e) {
    const std::size_t unanswered = handshaking ? 1 : pending.size();
    run.failed(std::string("no reply: ") + describe(e), unanswered, false);
  }
  run.worker_finished();
}

}  // namespace

run_result run_stdio_load(const options& o) {
  asio::io_context io;
  child_process child(io.get_executor(), o.command);
  load_run run(io.get_executor(), o.limits, child.pid());
  run.on_deadline([&] { child.kill(); });
  request_ids ids;
  run.start();  // the handshake is part of the warm-up, and bounded like the rest
  run.worker_started();
  asio::co_spawn(io, pipeline(child, o, run, ids), asio::detached);
  io.run();
  child.stop(std::chrono::milliseconds(2000));
  return run.result();
}

}  // namespace loadgen
