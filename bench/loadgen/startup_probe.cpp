// The time from spawning a server to reading its reply to initialize: what a
// client that starts a server over stdio waits before it can use it.

#include "child_process.hpp"
#include "line_reader.hpp"
#include "messages.hpp"
#include "pipe_handshake.hpp"
#include "scenarios.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace loadgen {

namespace {

// A server that has not answered by then is reported, not waited for.
constexpr std::chrono::seconds startup_bound{10};

asio::awaitable<void> probe(child_process& child, peer_kind peer, pipe_handshake& outcome,
                            asio::steady_timer& bound) {
  line_reader reader(child.output());
  try {
    outcome = co_await handshake(child, reader, peer, 1);
  } catch (const std::exception& e) {
    outcome.problem = std::string("no reply to initialize: ") + describe(e);
  }
  bound.cancel();
}

}  // namespace

run_result run_startup(const options& o) {
  asio::io_context io;
  const auto spawned_at = clock::now();
  child_process child(io.get_executor(), o.command);
  asio::steady_timer bound(io, startup_bound);
  bound.async_wait([&](boost::system::error_code ec) {
    if (!ec) child.kill();
  });
  pipe_handshake outcome;
  asio::co_spawn(io, probe(child, o.peer, outcome, bound), asio::detached);
  io.run();
  child.stop(std::chrono::milliseconds(2000));

  run_result result;
  result.sent = 1;
  result.checked = outcome.replied_at == clock::time_point{} ? 0 : 1;
  if (!outcome.problem.empty()) {
    result.errors = 1;
    result.error_samples.push_back(outcome.problem);
    return result;
  }
  const std::chrono::duration<double, std::milli> waited = outcome.replied_at - spawned_at;
  result.extra.emplace_back("startup_ms", waited.count());
  return result;
}

}  // namespace loadgen
