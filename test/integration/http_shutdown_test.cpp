// Graceful shutdown of the HTTP server: http_server::stop() lets calls in
// flight finish and deliver their answers (JSON or SSE, many at once, GET
// and legacy streams beside them) within shutdown_timeout, refuses new work
// meanwhile, cancels what outlives the timeout (or at once on a second
// stop()), is not held up by idle connections, GET streams or a handler that
// ignores its cancellation; and run_http_server (everything-server --http,
// caduceus serve-demo --http) does the same on SIGTERM and SIGINT and exits
// with status 0, also after a run of interrupted and failed client commands.

#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "child_process.hpp"
#include "legacy_session.hpp"
#include "test_support.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>


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
  co_return co_await wait_until(ended, limit);
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

/// A call answered with an event stream, on a connection of its own, once
/// the response's head and the stream's first message have been read.
struct streaming_call {
  std::unique_ptr<http_connection> connection;
  http_reply head;
  json::value first;
};

/// POSTs `call` in `session` on a new connection, preferring an event
/// stream, and reads the head and the first message of the stream that
/// answers; throws when the answer is no stream, or the stream ends first.
asio::awaitable<streaming_call> start_streaming_call(std::uint16_t port, const std::string& session,
                                                     const json::value& call) {
  auto ex = co_await asio::this_coro::executor;
  auto req = session_post(call, session);
  req.set("Accept", "text/event-stream, application/json");  // prefers a stream
  streaming_call started;
  started.connection = std::make_unique<http_connection>(ex, port);
  co_await started.connection->write(req);
  auto head = co_await started.connection->read_head();
  if (head.content_type() != "text/event-stream") throw std::runtime_error("the call did not answer with a stream");
  started.head = std::move(head);
  auto first = co_await started.connection->next_message();
  if (!first) throw std::runtime_error("the call's stream ended before its first message");
  started.first = std::move(*first);
  co_return started;
}

/// A call in flight: POSTed in a new session on a connection of its own,
/// its handler given 100 ms to start. The session's connection stays open,
/// idle; the call's answer comes on `caller`.
struct call_in_flight {
  std::unique_ptr<http_connection> session_connection;
  std::string session;
  std::unique_ptr<http_connection> caller;
};

asio::awaitable<call_in_flight> start_call_in_flight(std::uint16_t port, const json::value& call) {
  auto ex = co_await asio::this_coro::executor;
  call_in_flight started;
  started.session_connection = std::make_unique<http_connection>(ex, port);
  started.session = co_await open_session(*started.session_connection);
  const auto req = session_post(call, started.session);
  started.caller = std::make_unique<http_connection>(ex, port);
  co_await started.caller->write(req);
  co_await sleep_for(100ms);  // the handler runs
  co_return started;
}

// --- in process -------------------------------------------------------------------

TEST(HttpShutdown, JsonCallInFlightIsAnsweredThenRunReturns) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    const auto call = slow_call(3, 300);
    const auto in_flight = co_await start_call_in_flight(s.port(), call);

    s.http.stop();
    const auto reply = co_await in_flight.caller->read_response(5s);
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
    const auto streaming = co_await start_streaming_call(s.port(), session, call);
    EXPECT_EQ(streaming.head.status, 200u);
    std::vector<json::value> seen{streaming.first};

    s.http.stop();
    while (auto m = co_await streaming.connection->next_message(3s)) seen.push_back(std::move(*m));  // ends cleanly
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
    const auto call = slow_call(5, 800);
    const auto in_flight = co_await start_call_in_flight(s.port(), call);
    const auto& session = in_flight.session;
    auto& idle = *in_flight.session_connection;  // a keep-alive connection, idle when stop() comes

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
    const auto reply = co_await in_flight.caller->read_response(5s);
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
    const auto streaming = co_await start_streaming_call(s.port(), session, counting);

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
    const bool no_answer = co_await ends_without_answer(*streaming.connection, 2s);
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

/// A call of `count` (`steps` of 60 ms, progress after each) on its own
/// connection, preferring an SSE stream; its head and first progress read.
asio::awaitable<std::unique_ptr<http_connection>> start_counting(std::uint16_t port, const std::string& session,
                                                                 int id, int steps) {
  const json::value token = json::string("count-" + std::to_string(id));
  auto params = tool_call("count", json::object{{"steps", steps}, {"step_ms", 60}}, token);
  const auto call = rpc_request(id, "tools/call", std::move(params));
  auto streaming = co_await start_streaming_call(port, session, call);
  if (streaming.first.at("method") != "notifications/progress") throw std::runtime_error("no first progress");
  co_return std::move(streaming.connection);
}

/// The rest of a counting stream after its first progress: every other
/// progress, then its result, then the end of the stream.
asio::awaitable<void> expect_counted_to_the_end(http_connection& streaming, int id, int steps) {
  std::vector<json::value> rest;
  while (auto m = co_await streaming.next_message(3s)) rest.push_back(std::move(*m));
  EXPECT_EQ(rest.size(), static_cast<std::size_t>(steps)) << "call " << id;
  CO_ASSERT_TRUE(!rest.empty());
  EXPECT_EQ(rest.back().at("id"), id);
  EXPECT_EQ(first_text(rest.back().at("result").as_object()), "counted to " + std::to_string(steps));
}

TEST(HttpShutdown, ManyCallsAndStreamsInFlightEachGetTheirAnswerOrAnEnd) {
  // JSON calls, POST streams with progress, GET streams, and legacy /sse
  // streams (one with a call in flight), all open when stop() comes.
  http_server_options options;
  options.shutdown_timeout = 3s;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto port = s.port();
    http_connection c(ex, port);
    const auto session = co_await open_session(c);

    std::vector<std::unique_ptr<http_connection>> json_callers;
    for (int i = 0; i < 4; ++i) {
      const auto call = slow_call(10 + i, 200 + 50 * i);
      const auto req = session_post(call, session);
      auto& caller = json_callers.emplace_back(std::make_unique<http_connection>(ex, port));
      co_await caller->write(req);
    }
    std::vector<std::unique_ptr<http_connection>> streams;
    for (int i = 0; i < 3; ++i) streams.push_back(co_await start_counting(port, session, 20 + i, 5));

    std::vector<std::unique_ptr<http_connection>> listeners;  // a GET stream in each of two more sessions
    for (int i = 0; i < 2; ++i) {
      http_connection opener(ex, port);
      const auto other = co_await open_session(opener);
      const auto get = mcp_get(other);
      auto& listener = listeners.emplace_back(std::make_unique<http_connection>(ex, port));
      co_await listener->write(get);
      const auto head = co_await listener->read_head();
      EXPECT_EQ(head.status, 200u);
    }
    legacy_session idle_legacy(ex, port), busy_legacy(ex, port);
    co_await idle_legacy.open();
    co_await idle_legacy.initialize();
    co_await busy_legacy.open();
    co_await busy_legacy.initialize();
    const auto legacy_call = slow_call(30, 300);
    const auto legacy_status = co_await busy_legacy.post_status(legacy_call);
    EXPECT_EQ(legacy_status, 202u);
    co_await sleep_for(50ms);

    const auto started = clock_type::now();
    s.http.stop();

    for (int i = 0; i < 4; ++i) {
      const auto reply = co_await json_callers[i]->read_response(5s);
      EXPECT_EQ(reply.status, 200u) << reply.body;
      EXPECT_EQ(first_text(reply.json().at("result").as_object()), "slept " + std::to_string(200 + 50 * i) + " ms");
    }
    for (int i = 0; i < 3; ++i) co_await expect_counted_to_the_end(*streams[i], 20 + i, 5);
    for (auto& listener : listeners) {
      const bool ended = co_await ends_without_answer(*listener, 3s);
      EXPECT_TRUE(ended);
    }
    const auto legacy_answer = co_await busy_legacy.next(3s);  // on its stream, before the stream ends
    EXPECT_EQ(legacy_answer.at("id"), 30);
    EXPECT_EQ(first_text(legacy_answer.at("result").as_object()), "slept 300 ms");
    const std::array<http_connection*, 2> legacy_streams{&busy_legacy.stream, &idle_legacy.stream};
    for (auto* legacy : legacy_streams) {
      const bool ended = co_await ends_without_answer(*legacy, 3s);
      EXPECT_TRUE(ended);
    }

    const bool ended = co_await wait_ended(s, 5s);
    EXPECT_TRUE(ended) << "run() returned: " << s.state->returned << ", sessions left: " << s.http.session_count();
    EXPECT_LT(clock_type::now() - started, 3s + 2s);  // shutdown_timeout and a margin
  });
}

/// A tool whose handler ignores its cancellation until `released` (checked every 10 ms).
void add_deaf_tool(mcp::server& tools, std::shared_ptr<std::atomic<bool>> released) {
  mcp::tool_info deaf;
  deaf.name = "deaf";
  deaf.description = "Runs until released, deaf to cancellation";
  tools.add_tool(deaf, [released](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
    co_await asio::this_coro::reset_cancellation_state(asio::disable_cancellation());
    asio::steady_timer timer(co_await asio::this_coro::executor);
    while (!released->load()) {
      timer.expires_after(10ms);
      co_await timer.async_wait(asio::use_awaitable);
    }
    co_return mcp::call_tool_result::text("released");
  });
}

TEST(HttpShutdown, AHandlerThatIgnoresCancellationDoesNotHoldRunPastTheDeadline) {
  http_server_options options;
  options.shutdown_timeout = 300ms;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto released = std::make_shared<std::atomic<bool>>(false);
    add_deaf_tool(*s.tools, released);
    auto params = tool_call("deaf", json::object{});
    const auto call = rpc_request(9, "tools/call", std::move(params));
    const auto in_flight = co_await start_call_in_flight(s.port(), call);

    const auto started = clock_type::now();
    s.http.stop();
    const std::function<bool()> returned = [&s] { return s.state->returned.load(); };
    const bool ended = co_await wait_until(returned, 6s);
    const auto took = clock_type::now() - started;
    EXPECT_TRUE(ended) << "run() still waits for the handler";
    EXPECT_LT(took, 300ms + 1500ms + 2s);  // shutdown_timeout, the engine's grace, a margin
    // The call's connection got a complete response without its result, or was closed.
    try {
      const auto reply = co_await in_flight.caller->read_response(2s);
      EXPECT_EQ(reply.body.find("released"), std::string::npos) << reply.body;
    } catch (const boost::system::system_error&) {
    }
    released->store(true);  // the handler ends; its session with it (stop_and_wait checks)
  });
}

TEST(HttpShutdown, ASecondStopCancelsAtOnce) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {  // shutdown_timeout: 10 s
    const auto call = slow_call(11, 8000);
    const auto in_flight = co_await start_call_in_flight(s.port(), call);

    const auto started = clock_type::now();
    s.http.stop();
    co_await sleep_for(100ms);
    EXPECT_FALSE(s.state->returned) << "the first stop() drains";
    s.http.stop();
    const bool ended = co_await wait_ended(s, 5s);
    EXPECT_TRUE(ended) << "run() returned: " << s.state->returned << ", sessions left: " << s.http.session_count();
    EXPECT_LT(clock_type::now() - started, 4s);
    try {
      const auto reply = co_await in_flight.caller->read_response(2s);
      EXPECT_EQ(reply.body.find("slept"), std::string::npos) << reply.body;
    } catch (const boost::system::system_error&) {
    }
  });
}

// --- servers as processes ----------------------------------------------------------

/// A server started as `argv` (on 127.0.0.1, port 0), with its port read
/// from the URL it prints first; killed and reaped however the test ends.
struct server_process {
  explicit server_process(std::vector<std::string> argv) : child(std::move(argv)) {
    const auto url = child.read_line(10s);  // http://127.0.0.1:PORT/mcp
    const std::string prefix = "http://127.0.0.1:";
    if (!url.starts_with(prefix) || !url.ends_with("/mcp")) throw std::runtime_error("unexpected first line: " + url);
    port = static_cast<std::uint16_t>(std::stoul(url.substr(prefix.size())));
  }

  /// Waits up to `limit` for it to exit: how long that took, or nullopt.
  std::optional<clock_type::duration> exits_within(std::chrono::milliseconds limit) {
    const auto started = clock_type::now();
    if (!child.wait(limit)) return std::nullopt;
    return clock_type::now() - started;
  }

  child_process child;
  std::uint16_t port = 0;
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/mcp"; }
};

std::unique_ptr<server_process> start_everything_server() {
  return std::make_unique<server_process>(std::vector<std::string>{test_program("everything-server"), "--http", "127.0.0.1:0"});
}

/// stuck-http-server: tools that ignore cancellation, and this shutdown_timeout.
std::unique_ptr<server_process> start_stuck_server(std::chrono::milliseconds shutdown_timeout) {
  return std::make_unique<server_process>(
      std::vector<std::string>{test_program("stuck-http-server"), std::to_string(shutdown_timeout.count())});
}

/// Starts everything-server --http and runs `body` against it (30 s at most).
void run_against_everything_server(std::function<asio::awaitable<void>(server_process&)> body) {
  std::unique_ptr<server_process> server;
  ASSERT_NO_THROW(server = start_everything_server());
  run_test([&]() -> asio::awaitable<void> { co_await body(*server); }, 30s);
}

/// everything-server's long_task (`steps` of `step_ms`, progress under
/// `token` after each) called as `id` in a new session opened on `c`, which
/// stays open and idle meanwhile: begun as an event stream, its first
/// message read (see start_streaming_call).
asio::awaitable<streaming_call> start_long_task(http_connection& c, int id, int steps, int step_ms,
                                                const char* token) {
  const auto session = co_await open_session(c);
  auto params = tool_call("long_task", json::object{{"steps", steps}, {"step_ms", step_ms}}, token);
  const auto call = rpc_request(id, "tools/call", std::move(params));
  auto started = co_await start_streaming_call(c.port(), session, call);
  co_return started;
}

TEST(HttpShutdown, ProcessFinishesItsCallOnSigtermAndExitsZero) {
  run_against_everything_server([](server_process& server) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, server.port);
    // ~750 ms of work, reporting progress every 150 ms.
    const auto task = co_await start_long_task(c, 4, 5, 150, "term");
    EXPECT_EQ(task.head.status, 200u);
    EXPECT_EQ(task.first.at("method"), "notifications/progress");

    server.child.signal(SIGTERM);
    std::vector<json::value> rest;
    while (auto m = co_await task.connection->next_message(3s)) rest.push_back(std::move(*m));
    CO_ASSERT_TRUE(!rest.empty());
    EXPECT_EQ(rest.size(), 5u);  // progress 2..5, then the result
    EXPECT_EQ(rest.back().at("id"), 4);
    EXPECT_EQ(first_text(rest.back().at("result").as_object()), "completed 5 steps");

    CO_ASSERT_TRUE(server.exits_within(5s).has_value());
    EXPECT_EQ(server.child.exit_code(), 0) << server.child.err();
  });
}

TEST(HttpShutdown, IdleProcessExitsPromptlyOnSigint) {
  run_against_everything_server([](server_process& server) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, server.port);  // stays open, idle
    const auto session = co_await open_session(c);
    http_connection listener(ex, server.port);
    const auto get = mcp_get(session);
    co_await listener.write(get);
    const auto head = co_await listener.read_head();
    EXPECT_EQ(head.status, 200u);

    server.child.signal(SIGINT);
    const auto took = server.exits_within(5s);
    CO_ASSERT_TRUE(took.has_value());
    EXPECT_LT(*took, 3s);  // not the 10 s shutdown_timeout
    EXPECT_EQ(server.child.exit_code(), 0) << server.child.err();
    const bool stream_ended = co_await ends_without_answer(listener, 2s);
    EXPECT_TRUE(stream_ended);
  });
}

TEST(HttpShutdown, ASecondSignalStopsTheProcessWithoutWaitingForItsCall) {
  run_against_everything_server([](server_process& server) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, server.port);
    // 20 s of work: far beyond the 10 s shutdown_timeout.
    const auto task = co_await start_long_task(c, 5, 200, 100, "long");

    server.child.signal(SIGINT);
    co_await sleep_for(200ms);
    EXPECT_EQ(server.child.exit_code(), -1) << "the first signal drains: the call still runs";
    server.child.signal(SIGINT);
    const auto took = server.exits_within(5s);
    CO_ASSERT_TRUE(took.has_value());  // the second signal stopped it
    EXPECT_LT(*took, 4s);
    EXPECT_EQ(server.child.exit_code(), 0) << server.child.err();
    const bool no_answer = co_await ends_without_answer(*task.connection, 2s);
    EXPECT_TRUE(no_answer);
  });
}

/// Sends `tool` to the stuck server in a new session and waits until it runs.
asio::awaitable<std::unique_ptr<http_connection>> call_stuck_tool(std::uint16_t port, const char* tool) {
  auto params = tool_call(tool, json::object{});
  const auto call = rpc_request(7, "tools/call", std::move(params));
  auto in_flight = co_await start_call_in_flight(port, call);
  co_return std::move(in_flight.caller);
}

TEST(HttpShutdown, HandlersThatIgnoreCancellationDoNotKeepTheProcessFromExiting) {
  // One awaits a timer an hour away, one blocks a worker thread for an hour;
  // neither may hold the process past shutdown_timeout (300 ms) and the
  // engine's grace.
  std::unique_ptr<server_process> server;
  ASSERT_NO_THROW(server = start_stuck_server(300ms));
  const auto port = server->port;
  run_test(
      [&]() -> asio::awaitable<void> {
        auto timer_caller = co_await call_stuck_tool(port, "stuck");
        auto blocking_caller = co_await call_stuck_tool(port, "blocking");

        server->child.signal(SIGTERM);
        const auto took = server->exits_within(8s);
        CO_ASSERT_TRUE(took.has_value());  // not still running 8 s after SIGTERM
        EXPECT_LT(*took, 5s);
        EXPECT_EQ(server->child.exit_code(), 0) << server->child.err();
        // Both calls got a complete response without a result, or their connection closed.
        const std::array<http_connection*, 2> callers{timer_caller.get(), blocking_caller.get()};
        for (auto* caller : callers) {
          try {
            const auto reply = co_await caller->read_response(2s);
            EXPECT_EQ(reply.body.find("an hour later"), std::string::npos) << reply.body;
          } catch (const boost::system::system_error&) {
          }
        }
      },
      30s);
}

/// One `caduceus call` of the SIGINT run below: its arguments, and how it is
/// cut short (not at all, SIGINT as Ctrl-C sends it, or SIGKILL, which leaves
/// its call running and its session undeleted).
struct client_command {
  std::vector<std::string> call;
  int signal = 0;
  std::chrono::milliseconds after{0};
};

std::vector<client_command> cancelled_and_failed_commands(int count, std::mt19937& random) {
  const std::vector<std::vector<std::string>> quick = {
      {"echo", R"({"text": "hello"})"},
      {"add", R"({"a": "not a number", "b": 2})"},  // bad arguments
      {"fail"},
      {"no_such_tool"},
      {"confirm", R"({"question": "go?"})"},  // elicitation, stdin at its end
      {"sample", R"({"prompt": "hi"})"},      // sampling, declined
  };
  std::uniform_int_distribution<int> delay(0, 500);
  std::vector<client_command> commands;
  for (int i = 0; i < count; ++i) {
    client_command command;
    if (i % 2 == 0) {
      command.call = quick[(i / 2) % quick.size()];
    } else {  // 2 s of work, interrupted at a random point: before, during or after connecting
      command.call = {"long_task", R"({"steps": 40, "step_ms": 50})"};
      command.signal = i % 10 == 9 ? SIGKILL : SIGINT;
      command.after = std::chrono::milliseconds(delay(random));
    }
    commands.push_back(std::move(command));
  }
  return commands;
}

/// Runs `commands` against `url`, `at_once` at a time, each signalled as it says.
void run_commands(const std::string& url, const std::vector<client_command>& commands, std::size_t at_once) {
  for (std::size_t first = 0; first < commands.size(); first += at_once) {
    const auto last = std::min(commands.size(), first + at_once);
    std::vector<std::unique_ptr<child_process>> running;
    for (auto i = first; i < last; ++i) {
      std::vector<std::string> argv{test_program("caduceus"), "--url", url, "call"};
      argv.insert(argv.end(), commands[i].call.begin(), commands[i].call.end());
      running.push_back(std::make_unique<child_process>(std::move(argv)));
    }
    const auto started = clock_type::now();
    std::vector<std::size_t> order;  // signalled in the order of their delays
    for (auto i = first; i < last; ++i)
      if (commands[i].signal != 0) order.push_back(i);
    std::ranges::sort(order, {}, [&](std::size_t i) { return commands[i].after; });
    for (const auto i : order) {
      std::this_thread::sleep_until(started + commands[i].after);
      running[i - first]->signal(commands[i].signal);
    }
    for (auto& command : running) EXPECT_TRUE(command->wait(15s)) << "a client command hung";
  }
}

TEST(HttpShutdown, ServeDemoStopsOnSigintAfterCancelledAndFailedCommands) {
  // The intermittent report: `caduceus serve-demo --http` ignoring SIGINT
  // after a run of `caduceus call`s, some interrupted mid-call, some failing.
  // CADUCEUS_SIGINT_SEED replays a run (each run prints its seed).
  const char* seed_text = std::getenv("CADUCEUS_SIGINT_SEED");
  const auto seed = seed_text ? static_cast<unsigned>(std::stoul(seed_text)) : std::random_device{}();
  SCOPED_TRACE("CADUCEUS_SIGINT_SEED=" + std::to_string(seed));
  std::mt19937 random(seed);
  std::unique_ptr<server_process> server;
  ASSERT_NO_THROW(server = std::make_unique<server_process>(
                      std::vector<std::string>{test_program("caduceus"), "serve-demo", "--http", "127.0.0.1:0"}));
  run_commands(server->url(), cancelled_and_failed_commands(30, random), 10);

  server->child.signal(SIGINT);
  // A SIGKILLed client's call (2 s at most) may still run: the drain lets it finish.
  const auto took = server->exits_within(8s);
  ASSERT_TRUE(took.has_value()) << "serve-demo still runs 8 s after SIGINT; its log:\n" << server->child.err();
  EXPECT_LT(*took, 5s);
  EXPECT_EQ(server->child.exit_code(), 0) << server->child.err();
}

}  // namespace
}  // namespace mcp::test
