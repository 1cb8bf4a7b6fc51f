// Load over Streamable HTTP: each worker owns one keep-alive connection (and
// one session in the stateful modes) and has one unit of its mode in flight
// at a time (http_exchange.hpp: one request, or the two of an input round).

#include "http_connection.hpp"
#include "http_exchange.hpp"
#include "messages.hpp"
#include "scenarios.hpp"
#include "session_opener.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>

#include <memory>

namespace loadgen {

namespace {

asio::awaitable<void> drive(http_connection& connection, const http_mode& mode, peer_kind peer, load_run& run,
                            request_ids& ids) {
  bool awaiting_reply = false;
  try {
    co_await connection.connect();
    std::string session_id;
    if (mode.sessions) {
      run.sent();
      awaiting_reply = true;
      const opened_session session = co_await open_session(connection, mode, ids.next());
      awaiting_reply = false;
      if (session.id.empty())
        run.failed("initialize: " + session.problem);
      else
        run.replied_outside_window();
      session_id = session.id;
    }
    const bool ready = !mode.sessions || !session_id.empty();
    http_exchange exchange(connection, mode, peer, session_id);
    while (ready && run.issuing()) {
      run.sent();
      awaiting_reply = true;
      const auto sent_at = clock::now();
      const std::string problem = co_await exchange.run(ids);
      awaiting_reply = false;
      if (problem.empty())
        run.replied(sent_at);
      else
        run.failed(problem);
    }
  } catch (const std::exception& e) {
    run.failed(std::string(awaiting_reply ? "no reply: " : "connection failed: ") + describe(e), 1, false);
  }
  connection.close();
  run.worker_finished();
}

}  // namespace

run_result run_http_load(const options& o) {
  asio::io_context io;
  const http_target target = parse_http_url(o.url);
  const http_mode mode = parse_http_mode(o.mode);
  load_run run(io.get_executor(), o.limits, o.server_pid);
  for (const auto& [name, pid] : o.cpu_pids) run.watch_cpu(name, pid);
  request_ids ids;
  std::vector<std::unique_ptr<http_connection>> connections;
  for (int i = 0; i < o.connections; ++i) connections.push_back(std::make_unique<http_connection>(io.get_executor(), target));
  run.on_deadline([&] {
    for (auto& connection : connections) connection->close();
  });
  run.start();
  for (auto& connection : connections) {
    run.worker_started();
    asio::co_spawn(io, drive(*connection, mode, o.peer, run, ids), asio::detached);
  }
  io.run();
  return run.result();
}

}  // namespace loadgen
