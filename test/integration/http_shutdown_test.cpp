// Graceful shutdown of the HTTP server: http_server::stop() lets calls in
// flight finish and deliver their answers (JSON or SSE) within
// shutdown_timeout, refuses new work meanwhile, cancels what outlives the
// timeout, and is not held up by idle connections or GET streams; and
// run_http_server (everything-server --http) does the same on SIGTERM and
// SIGINT and exits with status 0.

#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "spawn_child.hpp"
#include "test_support.hpp"

#include <boost/asio/steady_timer.hpp>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace mcp::test {
namespace {

/// A tools/call of `slow` answering after `ms`.
json::object slow_call(json::value id, int ms) {
  auto params = tool_call("slow", json::object{{"ms", ms}});
  return rpc_request(std::move(id), "tools/call", std::move(params));
}

/// Waits for run() to return and every session to end; false after `limit`.
asio::awaitable<bool> wait_ended(test_server& s, std::chrono::milliseconds limit) {
  const std::function<bool()> ended = [&s] { return s.state->returned && s.http.session_count() == 0; };
  co_return co_await test_server::wait_until(ended, limit);
}

/// Reads the rest of an event stream within `limit` per message: true when it
/// ended (cleanly, or with its connection) and carried no answer; throws when
/// it stays open.
asio::awaitable<bool> ends_without_answer(http_connection& c, std::chrono::milliseconds limit) {
  try {
    while (auto m = co_await c.next_message(limit))
      if (m->as_object().contains("id")) co_return false;
  } catch (const boost::system::system_error&) {
  }
  co_return true;
}

/// What a request sent while the server drains gets: 503, or a connection
/// that is refused or closed. Anything else (an answer, no answer at all
/// within 2 s) is a failure.
asio::awaitable<void> expect_refused(http_connection& c, const http_request& req, const char* what) {
  try {
    const auto reply = co_await c.send(req, 2s);
    EXPECT_EQ(reply.status, 503u) << what << ": " << reply.body;
  } catch (const boost::system::system_error&) {
    // refused or closed: fine
  } catch (const std::runtime_error& e) {
    ADD_FAILURE() << what << ": the request hung during the drain: " << e.what();
  }
}

// --- in process -------------------------------------------------------------------

TEST(HttpShutdown, JsonCallInFlightIsAnsweredThenRunReturns) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    const auto call = slow_call(3, 300);
    const auto req = session_post(call, session);
    http_connection caller(ex, s.port());
    co_await caller.write(req);
    co_await sleep_for(100ms);  // the call runs

    s.http.stop();
    const auto reply = co_await caller.read_response(5s);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.content_type(), "application/json");
    EXPECT_EQ(reply.header(http::field::connection), "close");  // nothing more on this connection
    const auto body = reply.json();
    EXPECT_EQ(body.at("id"), 3);
    EXPECT_EQ(first_text(body.at("result").as_object()), "slept 300 ms");

    const bool ended = co_await wait_ended(s, 3s);
    EXPECT_TRUE(ended) << "run() returned: " << s.state->returned << ", sessions left: " << s.http.session_count();
  });
}

TEST(HttpShutdown, SseCallInFlightDeliversAllProgressAndItsResult) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    auto params = tool_call("count", json::object{{"steps", 6}, {"step_ms", 60}}, "drain");
    const auto call = rpc_request(4, "tools/call", std::move(params));
    auto req = session_post(call, session);
    req.set("Accept", "text/event-stream, application/json");  // prefers a stream
    http_connection streaming(ex, s.port());
    co_await streaming.write(req);
    const auto head = co_await streaming.read_head();
    EXPECT_EQ(head.status, 200u);
    EXPECT_EQ(head.content_type(), "text/event-stream");
    std::vector<json::value> seen;
    auto first = co_await streaming.next_message();
    CO_ASSERT_TRUE(first.has_value());
    seen.push_back(std::move(*first));

    s.http.stop();
    while (auto m = co_await streaming.next_message(3s)) seen.push_back(std::move(*m));  // ends cleanly
    CO_ASSERT_TRUE(seen.size() == 7u);
    for (int i = 0; i < 6; ++i) {
      EXPECT_EQ(seen[i].at("method"), "notifications/progress");
      EXPECT_EQ(seen[i].at("params").at("progress").to_number<double>(), i + 1.0);
    }
    EXPECT_EQ(seen[6].at("id"), 4);
    EXPECT_EQ(first_text(seen[6].at("result").as_object()), "counted to 6");

    const bool ended = co_await wait_ended(s, 3s);
    EXPECT_TRUE(ended) << "run() returned: " << s.state->returned << ", sessions left: " << s.http.session_count();
  });
}

TEST(HttpShutdown, NewRequestsDuringTheDrainAreRefusedNotHung) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection idle(ex, s.port());  // a keep-alive connection, idle when stop() comes
    const auto session = co_await open_session(idle);
    const auto call = slow_call(5, 800);
    const auto req = session_post(call, session);
    http_connection caller(ex, s.port());
    co_await caller.write(req);
    co_await sleep_for(100ms);

    const auto port = s.port();
    s.http.stop();
    co_await sleep_for(20ms);
    const auto ping = rpc_request(6, "ping");
    const auto ping_req = session_post(ping, session);
    http_connection fresh(ex, port);
    co_await expect_refused(fresh, ping_req, "a ping on a new connection");
    co_await expect_refused(idle, ping_req, "a ping on an idle keep-alive connection");
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto init_req = mcp_post(init);
    http_connection newcomer(ex, port);
    co_await expect_refused(newcomer, init_req, "an initialize on a new connection");
    EXPECT_FALSE(s.state->returned);  // the call still runs

    // The call in flight is still answered.
    const auto reply = co_await caller.read_response(5s);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(first_text(reply.json().at("result").as_object()), "slept 800 ms");
    const bool ended = co_await wait_ended(s, 3s);
    EXPECT_TRUE(ended);
  });
}

TEST(HttpShutdown, CallsBeyondTheTimeoutAreCancelled) {
  http_server_options options;
  options.shutdown_timeout = 300ms;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    // A 5 s call answering JSON, and a 5 s call streaming progress.
    const auto call = slow_call(7, 5000);
    const auto req = session_post(call, session);
    http_connection caller(ex, s.port());
    co_await caller.write(req);
    auto params = tool_call("count", json::object{{"steps", 100}, {"step_ms", 50}}, "long");
    const auto counting = rpc_request(8, "tools/call", std::move(params));
    auto stream_req = session_post(counting, session);
    stream_req.set("Accept", "text/event-stream, application/json");
    http_connection streaming(ex, s.port());
    co_await streaming.write(stream_req);
    const auto head = co_await streaming.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    const auto first = co_await streaming.next_message();
    CO_ASSERT_TRUE(first.has_value());

    const auto started = clock_type::now();
    s.http.stop();
    const bool ended = co_await wait_ended(s, 3s);
    const auto took = clock_type::now() - started;
    EXPECT_TRUE(ended) << "run() returned: " << s.state->returned << ", sessions left: " << s.http.session_count();
    EXPECT_LT(took, 3s);
    EXPECT_GE(took, 250ms) << "the calls were cancelled before shutdown_timeout passed";

    // Neither call was answered: the JSON one gets no result, the stream ends without one.
    try {
      const auto reply = co_await caller.read_response(2s);
      EXPECT_NE(reply.status, 200u) << reply.body;
      EXPECT_EQ(reply.body.find("slept"), std::string::npos) << reply.body;
    } catch (const boost::system::system_error&) {
      // the connection closed without an answer: fine
    }
    const bool no_answer = co_await ends_without_answer(streaming, 2s);
    EXPECT_TRUE(no_answer);
  });
}

TEST(HttpShutdown, IdleConnectionsAndGetStreamsDoNotHoldItUp) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    EXPECT_EQ(s.http.session_count(), 0u);
    auto ex = co_await asio::this_coro::executor;
    http_connection idle(ex, s.port());
    const auto session = co_await open_session(idle);
    http_connection other(ex, s.port());
    co_await open_session(other);  // a second session, its connection idle too
    http_connection listener(ex, s.port());
    const auto get = mcp_get(session);
    co_await listener.write(get);
    const auto stream_head = co_await listener.read_head();
    EXPECT_EQ(stream_head.status, 200u);
    EXPECT_EQ(stream_head.content_type(), "text/event-stream");
    http_connection connected_only(ex, s.port());  // connected, never sent anything
    co_await connected_only.connect();
    co_await sleep_for(50ms);

    // shutdown_timeout is 10 s: none of these may make stop() wait for it.
    const auto started = clock_type::now();
    s.http.stop();
    const bool ended = co_await wait_ended(s, 3s);
    EXPECT_TRUE(ended) << "run() returned: " << s.state->returned << ", sessions left: " << s.http.session_count();
    EXPECT_LT(clock_type::now() - started, 3s);

    const bool stream_ended = co_await ends_without_answer(listener, 2s);
    EXPECT_TRUE(stream_ended);
    // The idle connections were closed by the server.
    const std::array<http_connection*, 3> idle_ones{&idle, &other, &connected_only};
    for (auto* conn : idle_ones) {
      bool closed = false;
      try {
        co_await conn->read_response(2s);
      } catch (const boost::system::system_error&) {
        closed = true;
      } catch (const std::runtime_error& e) {
        ADD_FAILURE() << "an idle connection stayed open after stop(): " << e.what();
      }
      EXPECT_TRUE(closed);
    }
  });
}

// --- everything-server as a process --------------------------------------------------

/// A child process with its stdout on a pipe; SIGKILLed and reaped unless it
/// was reaped already, however the test ends.
struct child_process {
  pid_t pid = -1;
  int out = -1;
  bool reaped = false;
  int status = 0;

  child_process() = default;
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;
  ~child_process() {
    if (pid > 0 && !reaped) kill_and_reap(pid);
    if (out >= 0) ::close(out);
  }

  /// True once the process has exited (its wait status in `status`).
  bool try_reap() {
    if (reaped) return true;
    int st = 0;
    const pid_t r = ::waitpid(pid, &st, WNOHANG);
    if (r == pid) {
      reaped = true;
      status = st;
    }
    return reaped;
  }

  /// Waits up to `limit` for the process to exit.
  asio::awaitable<bool> exited_within(std::chrono::milliseconds limit) {
    const auto until = clock_type::now() + limit;
    while (!try_reap()) {
      if (clock_type::now() > until) co_return false;
      co_await sleep_for(10ms);
    }
    co_return true;
  }
};

/// The first line the child writes to stdout, within `limit`.
std::string read_first_line(int fd, std::chrono::milliseconds limit) {
  const auto until = clock_type::now() + limit;
  std::string line;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock_type::now());
    if (left.count() <= 0) throw std::runtime_error("no line on stdout within the deadline (got '" + line + "')");
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(left.count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) continue;
    char c;
    const auto n = ::read(fd, &c, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error("stdout ended before its first line (got '" + line + "')");
    if (c == '\n') return line;
    line += c;
  }
}

/// Starts everything-server --http 127.0.0.1:0; `port` is read from the URL
/// it prints first.
std::unique_ptr<child_process> start_everything_server(std::uint16_t& port) {
  auto child = std::make_unique<child_process>();
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) < 0) throw std::runtime_error("pipe failed");
  child->out = fds[0];

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  const std::string program = std::string(CADUCEUS_BIN_DIR) + "/everything-server";
  std::vector<std::string> argv{program, "--http", "127.0.0.1:0"};
  const int rc = spawn_child(child->pid, argv, actions);
  ::close(fds[1]);
  if (rc != 0) {
    child->pid = -1;
    throw std::runtime_error("cannot start " + program + ": " + std::strerror(rc));
  }

  const auto url = read_first_line(child->out, 10s);
  // http://127.0.0.1:PORT/mcp
  const std::string prefix = "http://127.0.0.1:";
  if (!url.starts_with(prefix)) throw std::runtime_error("unexpected first line: " + url);
  const auto digits = url.substr(prefix.size(), url.find('/', prefix.size()) - prefix.size());
  port = static_cast<std::uint16_t>(std::stoul(digits));
  if (url.substr(prefix.size() + digits.size()) != "/mcp") throw std::runtime_error("unexpected first line: " + url);
  return child;
}

TEST(HttpShutdown, ProcessFinishesItsCallOnSigtermAndExitsZero) {
  std::uint16_t port = 0;
  std::unique_ptr<child_process> server;
  ASSERT_NO_THROW(server = start_everything_server(port));
  ASSERT_NE(port, 0u);
  run_test(
      [&]() -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        http_connection c(ex, port);
        const auto session = co_await open_session(c);
        // ~750 ms of work, reporting progress every 150 ms.
        auto params = tool_call("long_task", json::object{{"steps", 5}, {"step_ms", 150}}, "term");
        const auto call = rpc_request(4, "tools/call", std::move(params));
        auto req = session_post(call, session);
        req.set("Accept", "text/event-stream, application/json");
        http_connection caller(ex, port);
        co_await caller.write(req);
        const auto head = co_await caller.read_head();
        EXPECT_EQ(head.status, 200u);
        EXPECT_EQ(head.content_type(), "text/event-stream");
        auto first = co_await caller.next_message();
        CO_ASSERT_TRUE(first.has_value());
        EXPECT_EQ(first->at("method"), "notifications/progress");

        CO_ASSERT_TRUE(::kill(server->pid, SIGTERM) == 0);
        std::vector<json::value> rest;
        while (auto m = co_await caller.next_message(3s)) rest.push_back(std::move(*m));
        CO_ASSERT_TRUE(!rest.empty());
        EXPECT_EQ(rest.size(), 5u);  // progress 2..5, then the result
        EXPECT_EQ(rest.back().at("id"), 4);
        EXPECT_EQ(first_text(rest.back().at("result").as_object()), "completed 5 steps");

        const bool exited = co_await server->exited_within(5s);
        CO_ASSERT_TRUE(exited);
        EXPECT_TRUE(WIFEXITED(server->status)) << "wait status " << server->status;
        EXPECT_EQ(WEXITSTATUS(server->status), 0);
      },
      30s);
}

TEST(HttpShutdown, IdleProcessExitsPromptlyOnSigint) {
  std::uint16_t port = 0;
  std::unique_ptr<child_process> server;
  ASSERT_NO_THROW(server = start_everything_server(port));
  ASSERT_NE(port, 0u);
  run_test(
      [&]() -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        http_connection c(ex, port);  // stays open, idle
        const auto session = co_await open_session(c);
        http_connection listener(ex, port);
        const auto get = mcp_get(session);
        co_await listener.write(get);
        const auto head = co_await listener.read_head();
        EXPECT_EQ(head.status, 200u);

        const auto started = clock_type::now();
        CO_ASSERT_TRUE(::kill(server->pid, SIGINT) == 0);
        const bool exited = co_await server->exited_within(5s);
        CO_ASSERT_TRUE(exited);
        EXPECT_LT(clock_type::now() - started, 3s);  // not the 10 s shutdown_timeout
        EXPECT_TRUE(WIFEXITED(server->status)) << "wait status " << server->status;
        EXPECT_EQ(WEXITSTATUS(server->status), 0);
        const bool stream_ended = co_await ends_without_answer(listener, 2s);
        EXPECT_TRUE(stream_ended);
      },
      30s);
}

}  // namespace
}  // namespace mcp::test
