// The HTTP client transport (connect_http) driven by mcp::client against our
// HTTP server in process: JSON and SSE answers, json_only and stateless
// servers, the GET stream, resumption of a stream the server lets go, many
// calls at once, the session and version headers, DELETE on close, servers
// that are gone, the fallback to the 2024-11-05 HTTP+SSE transport, HTTPS,
// HTTP errors; and, against a fake server, answers that are broken.

#include <mcp/client/client.hpp>
#include <mcp/client/pool.hpp>
#include <mcp/error.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http_client.hpp>

#include "echo_reply.hpp"
#include "http_client.hpp"
#include "http_test_server.hpp"
#include "test_certificates.hpp"
#include "test_support.hpp"
#include "legacy_client.hpp"
#include "run_on_threads.hpp"

#include <boost/asio/detached.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <algorithm>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace mcp::test {
namespace {

using tcp = asio::ip::tcp;
using namespace asio::experimental::awaitable_operators;

std::string url_of(std::uint16_t port, const std::string& path = "/mcp", const std::string& scheme = "http",
                   const std::string& host = "127.0.0.1") {
  return scheme + "://" + host + ":" + std::to_string(port) + path;
}

/// The text of the first content block, whatever call_tool returns.
template <class Result>
std::string text_of(const Result& result) {
  if constexpr (std::is_same_v<Result, json::object>)
    return std::string(result.at("content").at(0).at("text").as_string());
  else
    return std::string(result.content.at(0).at("text").as_string());
}

/// A client connected over connect_http; the transport stays reachable
/// (owned by the client) for its metadata.
struct connected {
  connected() {}  // not an aggregate: it crosses co_await (docs/compilers.md)
  std::unique_ptr<mcp::client> client;
  message_transport* transport = nullptr;
};

asio::awaitable<connected> connect_client(std::string url, http_client_options options) {
  auto ex = co_await asio::this_coro::executor;
  auto transport = co_await connect_http(ex, std::move(url), std::move(options));
  connected out;
  out.transport = transport.get();
  out.client = std::make_unique<mcp::client>(ex, legacy_only());  // sessions are what these test
  co_await out.client->connect(std::move(transport));
  co_return out;
}

asio::awaitable<connected> connect_client(std::string url) {
  http_client_options defaults;
  co_return co_await connect_client(std::move(url), std::move(defaults));
}

asio::awaitable<void> expect_echo(mcp::client& c, std::string text) {
  const auto said = co_await echo_reply(c, text);
  EXPECT_EQ(said, text);
}

/// The message of the exception `body` throws ("" when it throws none).
asio::awaitable<std::string> failure_message_of(const std::function<asio::awaitable<void>()>& body) {
  std::string message;
  try {
    co_await body();
  } catch (const std::exception& e) {
    message = e.what();
    if (message.empty()) message = "(an exception without a message)";
  }
  co_return message;
}

/// Adds tools until the client sees notifications/tools/list_changed: proof
/// that its GET stream is attached (the server drops what no stream carries).
asio::awaitable<bool> wait_for_get_stream(test_server& s, const std::vector<std::string>& methods) {
  for (int i = 0; i < 50; ++i) {
    for (const auto& m : methods)
      if (m == "notifications/tools/list_changed") co_return true;
    mcp::tool_info extra;
    extra.name = "extra-" + std::to_string(i);
    extra.description = "added at run time";
    s.tools->add_tool(extra, [](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
      co_return mcp::call_tool_result::text("extra");
    });
    co_await sleep_for(100ms);
  }
  co_return false;
}

/// A port where nothing listens.
std::uint16_t closed_port(asio::any_io_executor ex) {
  tcp::acceptor acceptor(ex, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const auto port = acceptor.local_endpoint().port();
  acceptor.close();
  return port;
}

// --- Streamable HTTP ------------------------------------------------------------

TEST(HttpClient, ConnectsAndCallsAToolWithAJsonAnswer) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    EXPECT_EQ(c.state(), connection_state::ready);
    EXPECT_EQ(c.server().server_info.name, "http-test");
    EXPECT_EQ(to_string(c.server().version), "2025-11-25");
    co_await expect_echo(c, "hello");
    co_await expect_echo(c, "again, on the same connection");
    co_await c.ping();
    const auto meta = conn.transport->metadata();
    EXPECT_EQ(meta.kind, "http");
    EXPECT_EQ(meta.peer, url_of(s.port()));
    EXPECT_GE(meta.session_id.size(), 32u);
    EXPECT_EQ(s.http.session_count(), 1u);
    co_await c.close();
  });
}

TEST(HttpClient, ProgressArrivesInOrderBeforeAnSseAnswer) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    std::vector<double> progress;
    call_options options;
    options.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
    json::object args{{"steps", 5}, {"step_ms", 10}};
    auto result = co_await c.call_tool("count", std::move(args), std::move(options));
    EXPECT_EQ(text_of(result), "counted to 5");
    EXPECT_EQ(progress, (std::vector<double>{1, 2, 3, 4, 5}));
    // The log tool's message arrives on its call's stream, before the answer.
    std::vector<std::string> methods;
    c.on_notification([&](const notification& n) { methods.push_back(n.method); });
    json::object none;
    auto logged = co_await c.call_tool("log", std::move(none));
    EXPECT_EQ(text_of(logged), "logged");
    EXPECT_NE(std::find(methods.begin(), methods.end(), "notifications/message"), methods.end());
    co_await c.close();
  });
}

TEST(HttpClient, JsonOnlyServerAnswersAndSendsProgressOnTheGetStream) {
  http_server_options options;
  options.json_only = true;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    std::vector<std::string> methods;
    auto ex = co_await asio::this_coro::executor;
    auto transport = co_await connect_http(ex, url_of(s.port()));
    mcp::client c(ex, legacy_only());
    c.on_notification([&](const notification& n) { methods.push_back(n.method); });
    co_await c.connect(std::move(transport));
    co_await expect_echo(c, "json only");
    const bool happened = co_await wait_for_get_stream(s, methods);
    EXPECT_TRUE(happened) << "no list_changed on the GET stream";

    std::vector<double> progress;
    call_options call;
    call.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
    json::object args{{"steps", 4}, {"step_ms", 50}};
    auto result = co_await c.call_tool("count", std::move(args), std::move(call));
    EXPECT_EQ(text_of(result), "counted to 4");
    // The answer and the progress travel on different connections: the last
    // update may come after the answer (and is then dropped by the client).
    EXPECT_FALSE(progress.empty());
    EXPECT_TRUE(std::is_sorted(progress.begin(), progress.end()));
    co_await c.close();
  });
}

TEST(HttpClient, StatelessServerServesEachCallOnItsOwn) {
  http_server_options options;
  options.stateless = true;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    EXPECT_TRUE(conn.transport->metadata().session_id.empty());
    co_await expect_echo(c, "no session");
    std::vector<double> progress;
    call_options call;
    call.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
    json::object args{{"steps", 3}};
    auto result = co_await c.call_tool("count", std::move(args), std::move(call));
    EXPECT_EQ(text_of(result), "counted to 3");
    EXPECT_EQ(progress, (std::vector<double>{1, 2, 3}));
    co_await c.close();  // no session: no DELETE; GET was 405 and is not retried
    // Each POST's own session ends on its strand once its answer and last
    // progress are written, which may be just after the client has them.
    const std::function<bool()> none_left = [&] { return s.http.session_count() == 0; };
    const bool all_ended = co_await eventually(none_left);
    EXPECT_TRUE(all_ended);
  });
}

TEST(HttpClient, ServerNotificationsArriveOnTheGetStream) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    std::vector<std::string> methods;
    auto ex = co_await asio::this_coro::executor;
    auto transport = co_await connect_http(ex, url_of(s.port()));
    mcp::client c(ex, legacy_only());
    c.on_notification([&](const notification& n) { methods.push_back(n.method); });
    co_await c.connect(std::move(transport));
    const bool listened = co_await wait_for_get_stream(s, methods);
    EXPECT_TRUE(listened) << "tools/list_changed never reached on_notification";
    // Calls go on beside the GET stream.
    co_await expect_echo(c, "beside the stream");
    co_await c.close();
  });
}

TEST(HttpClient, ResumesAStreamTheServerLetGoAndMissesNothing) {
  http_server_options options;
  options.retry_interval = 100ms;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    for (int round = 0; round < 2; ++round) {
      std::vector<double> progress;
      call_options call;
      call.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
      json::object none;
      const auto started = clock_type::now();
      auto result = co_await c.call_tool("release", std::move(none), std::move(call));
      EXPECT_EQ(text_of(result), "released and done");
      EXPECT_EQ(progress, (std::vector<double>{1, 2, 3})) << "round " << round;
      // The server's retry (100 ms), not the default backoff (1 s), set the pace.
      EXPECT_LT(clock_type::now() - started, 900ms);
    }
    co_await expect_echo(c, "after resuming");
    co_await c.close();
  });
}

TEST(HttpClient, FiftyConcurrentCallsShareOneTransport) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    auto ex = co_await asio::this_coro::executor;
    constexpr int calls = 50;
    int done = 0;
    int right = 0;
    std::vector<std::string> failures;
    // (The coroutines' lambda outlives them: a lambda made in the loop would
    // be gone while they still read its captures.)
    auto one = [&c, &done, &right, &failures](int i) -> asio::awaitable<void> {
      try {
        if (i % 2 == 0) {
          const std::string text = "call " + std::to_string(i);
          const auto said = co_await echo_reply(c, text);
          if (said == text) ++right;
        } else {
          json::object args{{"ms", 50}};
          auto result = co_await c.call_tool("slow", std::move(args));
          if (text_of(result) == "slept 50 ms") ++right;
        }
      } catch (const std::exception& e) {
        failures.push_back(e.what());
      }
      ++done;
    };
    for (int i = 0; i < calls; ++i) asio::co_spawn(ex, one(i), asio::detached);
    const std::function<bool()> all_done = [&] { return done == calls; };
    const bool happened = co_await wait_until(all_done, 15s);
    EXPECT_TRUE(happened) << done << " of " << calls << " calls ended";
    EXPECT_EQ(right, calls);
    for (const auto& f : failures) ADD_FAILURE() << f;
    EXPECT_EQ(s.http.session_count(), 1u);
    co_await c.close();
  });
}

TEST(HttpClient, APoolSpreadsCallsOverItsSessions) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto url = url_of(s.port());
    transport_factory factory = [ex, url]() { return connect_http(ex, url); };
    pool_options options;
    options.size = 4;
    options.client = legacy_only();  // the calls name the session they reach
    client_pool pool(ex, factory, options);
    co_await pool.connect();
    EXPECT_EQ(s.http.session_count(), 4u);
    constexpr int calls = 100;
    int right = 0;
    int done = 0;
    auto one = [&pool, &right, &done](int i) -> asio::awaitable<void> {
      const std::string text = "call " + std::to_string(i);
      try {
        right += co_await echo_reply(pool.next(), text) == text;
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
      }
      ++done;
    };
    for (int i = 0; i < calls; ++i) asio::co_spawn(ex, one(i), asio::detached);
    const std::function<bool()> all_done = [&] { return done == calls; };
    EXPECT_TRUE(co_await wait_until(all_done, 15s));
    EXPECT_EQ(right, calls);
    co_await pool.close();
    const std::function<bool()> all_deleted = [&] { return s.http.session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(all_deleted, 5s));
  });
}

TEST(HttpClient, FewConnectionsStillServeManyCallsInTurn) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_client_options options;
    options.max_connections = 2;  // the third call waits for one of the first two
    auto conn = co_await connect_client(url_of(s.port()), std::move(options));
    auto& c = *conn.client;
    auto ex = co_await asio::this_coro::executor;
    constexpr int calls = 8;
    int done = 0;
    int right = 0;
    const auto started = clock_type::now();
    auto one = [&c, &done, &right]() -> asio::awaitable<void> {
      try {
        json::object args{{"ms", 100}};
        auto result = co_await c.call_tool("slow", std::move(args));
        if (text_of(result) == "slept 100 ms") ++right;
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
      }
      ++done;
    };
    for (int i = 0; i < calls; ++i) asio::co_spawn(ex, one(), asio::detached);
    const std::function<bool()> all_done = [&] { return done == calls; };
    const bool finished = co_await wait_until(all_done, 10s);
    EXPECT_TRUE(finished) << done << " of " << calls << " calls ended";
    EXPECT_EQ(right, calls);
    // Two at a time: four rounds of 100 ms.
    EXPECT_GE(clock_type::now() - started, 380ms);
    co_await c.close();
  });
}

TEST(HttpClient, CloseWhileCallsAreInFlightIsPrompt) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    auto ex = co_await asio::this_coro::executor;
    int failed = 0;
    auto one = [&c, &failed](int i) -> asio::awaitable<void> {
      try {
        json::object args{{"ms", 5000}};
        if (i == 0) {
          auto result = co_await c.call_tool("slow", std::move(args));
        } else {
          json::object count_args{{"steps", 100}, {"step_ms", 50}};
          call_options call;
          call.on_progress = [](const progress_update&) {};
          auto result = co_await c.call_tool("count", std::move(count_args), std::move(call));
        }
        ADD_FAILURE() << "a call outlived close()";
      } catch (const std::exception&) {
        ++failed;
      }
    };
    for (int i = 0; i < 3; ++i) asio::co_spawn(ex, one(i), asio::detached);
    co_await sleep_for(200ms);
    const auto started = clock_type::now();
    co_await c.close();
    EXPECT_LT(clock_type::now() - started, 2500ms);
    const std::function<bool()> all_failed = [&] { return failed == 3; };
    const bool ended = co_await wait_until(all_failed, 2s);
    EXPECT_TRUE(ended) << failed << " of 3 calls ended";
    const std::function<bool()> gone = [&] { return s.http.session_count() == 0; };
    const bool deleted = co_await wait_until(gone, 2s);
    EXPECT_TRUE(deleted);
  });
}

TEST(HttpClient, TimedOutCallIsCancelledAndTheTransportGoesOn) {
  for (const bool json_only : {false, true}) {
    http_server_options options;
    options.json_only = json_only;
    run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
      auto conn = co_await connect_client(url_of(s.port()));
      auto& c = *conn.client;
      json::object args{{"ms", 3000}};
      call_options call;
      call.timeout = 200ms;
      EXPECT_EQ(co_await failure_of(c.call_tool("slow", std::move(args), std::move(call))),
                asio::error::timed_out);
      co_await expect_echo(c, "still usable");
      co_await c.close();
    });
  }
}

TEST(HttpClient, CancelledStreamingCallsFreeTheirConnections) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    mcp::tool_info stalls;
    stalls.name = "stalls";
    stalls.description = "Logs (so the answer is an SSE stream), then takes 5 s";
    s.tools->add_tool(stalls, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
      const json::value data = "working";
      co_await ctx.log(mcp::logging_level::info, data, "stalls");
      asio::steady_timer timer(co_await asio::this_coro::executor, 5s);
      co_await timer.async_wait(asio::use_awaitable);
      co_return mcp::call_tool_result::text("too late");
    });
    http_client_options options;
    options.max_connections = 2;
    auto conn = co_await connect_client(url_of(s.port()), std::move(options));
    auto& c = *conn.client;
    const auto started = clock_type::now();
    for (int i = 0; i < 4; ++i) {
      json::object none;
      call_options call;
      call.timeout = 150ms;
      EXPECT_EQ(co_await failure_of(c.call_tool("stalls", std::move(none), std::move(call))),
                asio::error::timed_out)
          << "call " << i;
    }
    // Each cancelled call gave its connection back: no wait for the 5 s tools.
    co_await expect_echo(c, "not stuck behind cancelled calls");
    EXPECT_LT(clock_type::now() - started, 3s);
    co_await c.close();
  });
}

TEST(HttpClient, ServerRequestsDuringACallAreAnswered) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    mcp::tool_info asks;
    asks.name = "asks";
    asks.description = "Pings the client during the call";
    s.tools->add_tool(asks, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
      json::object params;
      const std::chrono::milliseconds timeout = 3s;
      auto pong = co_await ctx.request("ping", std::move(params), timeout);
      co_return mcp::call_tool_result::text(pong.empty() ? "pong" : "unexpected");
    });
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    json::object none;
    auto result = co_await c.call_tool("asks", std::move(none));
    EXPECT_EQ(text_of(result), "pong");
    co_await c.close();
  });
}

TEST(HttpClient, SendsTheProtocolVersionAndExtraHeadersOnEveryRequest) {
  http_server_options options;
  options.stateless = true;  // each POST is its own session: a tool sees that POST's headers
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    mcp::tool_info headers;
    headers.name = "headers";
    headers.description = "The request headers the session saw";
    s.tools->add_tool(headers, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
      json::object seen;
      for (const auto& [name, value] : ctx.session().transport().headers) seen[name] = value;
      co_return mcp::call_tool_result::text(json::serialize(seen));
    });
    http_client_options client_options;
    client_options.headers["Authorization"] = "Bearer secret-token";
    client_options.headers["X-Trace"] = "abc";
    auto conn = co_await connect_client(url_of(s.port()), std::move(client_options));
    auto& c = *conn.client;
    json::object none;
    auto result = co_await c.call_tool("headers", std::move(none));
    const auto seen = json::parse(text_of(result)).as_object();
    EXPECT_EQ(seen.at("mcp-protocol-version"), "2025-11-25");
    EXPECT_EQ(seen.at("authorization"), "Bearer secret-token");
    EXPECT_EQ(seen.at("x-trace"), "abc");
    EXPECT_EQ(seen.at("content-type"), "application/json");
    EXPECT_EQ(seen.at("accept"), "application/json, text/event-stream");
    co_await c.close();
  });
}

TEST(HttpClient, SendsTheSessionIdAndCloseDeletesTheSession) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    const auto session = conn.transport->metadata().session_id;
    CO_ASSERT_TRUE(!session.empty());
    // The server answers 400 to a request without the session id: calls work,
    // so it is sent. The session is the one the server knows.
    co_await expect_echo(c, "in the session");
    {
      const auto status = co_await ping_status(s.port(), session);
      EXPECT_EQ(status, 200u);
    }
    EXPECT_EQ(s.http.session_count(), 1u);
    const auto started = clock_type::now();
    co_await c.close();
    EXPECT_LT(clock_type::now() - started, 3s);
    const std::function<bool()> gone = [&] { return s.http.session_count() == 0; };
    const bool happened = co_await wait_until(gone, 2s);
    EXPECT_TRUE(happened) << "close() did not DELETE the session";
    {
      const auto status = co_await ping_status(s.port(), session);
      EXPECT_EQ(status, 404u);
    }
    co_await c.close();  // idempotent
  });
}

TEST(HttpClient, ExpiredSessionIsRenewedAndTheCallGoesThrough) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    std::vector<connection_state> states;
    c.on_state_change([&](connection_state state) { states.push_back(state); });
    int logs = 0;
    c.on_log([&](const log_message&) { ++logs; });
    co_await c.set_logging_level(logging_level::warning);  // the `log` tool logs at info
    const auto first = conn.transport->metadata().session_id;
    // The session ends behind the client's back.
    const auto del = mcp_delete(first);
    const auto deleted = co_await http_call(s.port(), del);
    EXPECT_EQ(deleted.status, 200u);

    co_await expect_echo(c, "after the expiry");
    const auto second = conn.transport->metadata().session_id;
    EXPECT_FALSE(second.empty());
    EXPECT_NE(second, first);
    EXPECT_EQ(states, (std::vector<connection_state>{connection_state::initializing, connection_state::ready}));
    // The new session was told the log level too: the info line stays away.
    json::object none;
    auto logged = co_await c.call_tool("log", none);
    EXPECT_EQ(text_of(logged), "logged");
    EXPECT_EQ(logs, 0);
    co_await c.close();
  });
}

TEST(HttpClient, ConcurrentCallsInAnExpiredSessionRenewItOnce) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    int handshakes = 0;
    c.on_state_change([&](connection_state state) { handshakes += state == connection_state::initializing; });
    co_await c.ping();
    const auto del = mcp_delete(conn.transport->metadata().session_id);
    co_await http_call(s.port(), del);
    std::vector<std::string> said(8);
    auto one = [&](std::size_t i) -> asio::awaitable<void> {
      try {
        said[i] = co_await echo_reply(c, std::to_string(i));
      } catch (const std::exception& e) {
        said[i] = e.what();
      }
    };
    co_await ((one(0) && one(1) && one(2) && one(3)) && (one(4) && one(5) && one(6) && one(7)));
    for (std::size_t i = 0; i < said.size(); ++i) EXPECT_EQ(said[i], std::to_string(i));
    EXPECT_EQ(handshakes, 1);
    co_await c.close();
  });
}

TEST(HttpClient, HttpErrorFailsThatCallAndTheTransportGoesOn) {
  http_server_options options;
  options.max_body_size = 2048;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    std::optional<rpc_error> error;
    try {
      co_await echo_reply(c, std::string(5000, 'x'));
    } catch (const protocol_error& e) {
      error = e.error();
    }
    CO_ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->message.find("413"), std::string::npos) << error->message;
    EXPECT_EQ(error->data.at("httpStatus"), 413);
    co_await expect_echo(c, "small is fine");
    co_await c.ping();
    co_await c.close();
  });
}

TEST(HttpClient, ServerThatIsNotThereFailsConnectClearly) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto port = closed_port(ex);
    const auto started = clock_type::now();
    const std::function<asio::awaitable<void>()> attempt = [port]() -> asio::awaitable<void> {
      auto conn = co_await connect_client(url_of(port));
    };
    const auto message = co_await failure_message_of(attempt);
    EXPECT_LT(clock_type::now() - started, 5s);
    EXPECT_NE(message.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << message;
    EXPECT_NE(message.find("refused"), std::string::npos) << message;
  });
}

TEST(HttpClient, ServerThatWentAwayFailsCallsClearly) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto conn = co_await connect_client(url_of(s.port()));
    auto& c = *conn.client;
    co_await expect_echo(c, "still here");
    co_await s.stop_and_wait();
    const auto started = clock_type::now();
    const std::function<asio::awaitable<void>()> attempt = [&c]() -> asio::awaitable<void> {
      const auto said = co_await echo_reply(c, "gone?");
      ADD_FAILURE() << "a server that is gone answered " << said;
    };
    const auto message = co_await failure_message_of(attempt);
    EXPECT_LT(clock_type::now() - started, 5s);
    EXPECT_NE(message.find("refused"), std::string::npos) << message;
    const auto closing = clock_type::now();
    co_await c.close();
    EXPECT_LT(clock_type::now() - closing, 3s);
  });
}

// --- HTTP+SSE (2024-11-05) ------------------------------------------------------

TEST(HttpClient, FallsBackToTheLegacyTransportAutomatically) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    // POST /sse is 405 on our server: the client GETs /sse and goes on there.
    auto conn = co_await connect_client(url_of(s.port(), "/sse"));
    auto& c = *conn.client;
    EXPECT_EQ(c.state(), connection_state::ready);
    co_await expect_echo(c, "over the legacy transport");
    std::vector<double> progress;
    call_options call;
    call.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
    json::object args{{"steps", 3}};
    auto result = co_await c.call_tool("count", std::move(args), std::move(call));
    EXPECT_EQ(text_of(result), "counted to 3");
    EXPECT_EQ(progress, (std::vector<double>{1, 2, 3}));
    EXPECT_EQ(s.http.session_count(), 1u);
    co_await c.close();
    const std::function<bool()> gone = [&] { return s.http.session_count() == 0; };
    const bool happened = co_await wait_until(gone, 3s);
    EXPECT_TRUE(happened) << "closing the stream did not end the session";
  });
}

TEST(HttpClient, SpeaksTheLegacyTransportWhenAskedAndItsEndIsTheEnd) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_client_options options;
    options.mode = http_mode::legacy_sse;
    auto conn = co_await connect_client(url_of(s.port(), "/sse"), std::move(options));
    auto& c = *conn.client;
    co_await expect_echo(c, "legacy");
    json::object args{{"ms", 20}};
    auto slow = co_await c.call_tool("slow", std::move(args));
    EXPECT_EQ(text_of(slow), "slept 20 ms");
    // The server goes: its stream ends, and so does the connection.
    s.http.stop();
    const std::function<bool()> ended = [&] { return c.state() == connection_state::disconnected; };
    const bool happened = co_await wait_until(ended, 5s);
    EXPECT_TRUE(happened) << "the end of the SSE stream went unnoticed";
    co_await c.close();
  });
}

TEST(HttpClient, StreamableModeDoesNotFallBack) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_client_options options;
    options.mode = http_mode::streamable;
    const std::function<asio::awaitable<void>()> attempt = [&]() -> asio::awaitable<void> {
      auto conn = co_await connect_client(url_of(s.port(), "/sse"), options);
    };
    const auto message = co_await failure_message_of(attempt);
    EXPECT_NE(message.find("405"), std::string::npos) << message;
  });
}

// --- HTTPS -----------------------------------------------------------------------

class HttpClientTls : public tls_test_suite {};

TEST_F(HttpClientTls, TalksHttpsTrustingACaFile) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    const std::vector<std::string> hosts{"localhost", "127.0.0.1"};
    for (const auto& host : hosts) {
      http_client_options options;
      options.ca_file = certs->cert;
      auto conn = co_await connect_client(url_of(s.port(), "/mcp", "https", host), std::move(options));
      auto& c = *conn.client;
      co_await expect_echo(c, "over TLS to " + host);
      std::vector<double> progress;
      call_options call;
      call.on_progress = [&](const progress_update& p) { progress.push_back(p.progress); };
      json::object args{{"steps", 3}};
      auto result = co_await c.call_tool("count", std::move(args), std::move(call));
      EXPECT_EQ(text_of(result), "counted to 3");
      EXPECT_EQ(progress, (std::vector<double>{1, 2, 3}));
      co_await c.close();
    }
    const std::function<bool()> gone = [&] { return s.http.session_count() == 0; };
    const bool happened = co_await wait_until(gone, 2s);
    EXPECT_TRUE(happened);
  });
}

TEST_F(HttpClientTls, RefusesACertificateItDoesNotTrust) {
  run_http_test(tls_options(), [](test_server& s) -> asio::awaitable<void> {
    http_client_options options;
    options.ca_file = certs->other_cert;
    const auto started = clock_type::now();
    const std::function<asio::awaitable<void>()> attempt = [&]() -> asio::awaitable<void> {
      auto conn = co_await connect_client(url_of(s.port(), "/mcp", "https", "localhost"), options);
    };
    const auto message = co_await failure_message_of(attempt);
    EXPECT_LT(clock_type::now() - started, 5s);
    EXPECT_NE(message.find("TLS handshake"), std::string::npos) << message;
    EXPECT_NE(message.find("certificate verify failed"), std::string::npos) << message;
    EXPECT_EQ(s.http.session_count(), 0u);
  });
}

TEST(HttpClient, RefusesUrlsAndHeadersItCannotUse) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const std::vector<std::string> urls{"ftp://127.0.0.1/mcp", "not a url", "http://", "http://user:pw@127.0.0.1/mcp"};
    for (const auto& url : urls) {
      bool refused = false;
      try {
        auto transport = co_await connect_http(ex, url);
      } catch (const mcp::invalid_argument&) {
        refused = true;
      }
      EXPECT_TRUE(refused) << url;
    }
    http_client_options options;
    options.headers["X-Injected"] = "a\r\nHost: elsewhere";
    bool refused = false;
    try {
      auto transport = co_await connect_http(ex, "http://127.0.0.1:1/mcp", std::move(options));
    } catch (const mcp::invalid_argument&) {
      refused = true;
    }
    EXPECT_TRUE(refused) << "a header value with CRLF";
  });
}

// --- broken answers, from a fake server --------------------------------------------

/// One request as the fake server saw it.
struct seen_request {
  seen_request() {}
  http::verb method = http::verb::unknown;
  std::int64_t id = -1;  ///< the JSON-RPC id of a POSTed request, -1 when none
  std::string last_event_id;
  std::string session_id;
};

/// An HTTP server that answers each request with the raw response
/// `answer(request)` gives, then closes the connection.
class fake_server {
 public:
  using answer_fn = std::function<std::string(const seen_request&)>;

  fake_server(asio::any_io_executor ex, answer_fn answer)
      : acceptor_(ex, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)),
        state_(std::make_shared<state>()) {
    state_->answer = std::move(answer);
    asio::co_spawn(ex, accept_loop(), asio::detached);
  }
  ~fake_server() {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  }

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }
  const std::vector<seen_request>& requests() const { return state_->requests; }

 private:
  struct state {
    answer_fn answer;
    std::vector<seen_request> requests;
  };

  asio::awaitable<void> accept_loop() {
    for (;;) {
      auto [ec, socket] = co_await acceptor_.async_accept(asio::as_tuple(asio::use_awaitable));
      if (ec) co_return;
      asio::co_spawn(acceptor_.get_executor(), serve(std::move(socket), state_), asio::detached);
    }
  }

  static asio::awaitable<void> serve(tcp::socket socket, std::shared_ptr<state> st) {
    beast::flat_buffer buffer;
    http::request<http::string_body> req;
    auto [ec, n] = co_await http::async_read(socket, buffer, req, asio::as_tuple(asio::use_awaitable));
    if (ec) co_return;
    seen_request seen;
    seen.method = req.method();
    seen.last_event_id = std::string(req["Last-Event-ID"]);
    seen.session_id = std::string(req["Mcp-Session-Id"]);
    boost::system::error_code parse_ec;
    const auto body = json::parse(req.body(), parse_ec);
    if (!parse_ec && body.is_object() && body.as_object().contains("id") && body.at("id").is_int64())
      seen.id = body.at("id").as_int64();
    st->requests.push_back(seen);
    const auto response = st->answer(seen);
    co_await asio::async_write(socket, asio::buffer(response), asio::as_tuple(asio::use_awaitable));
    boost::system::error_code ignored;
    socket.shutdown(tcp::socket::shutdown_both, ignored);
  }

  tcp::acceptor acceptor_;
  std::shared_ptr<state> state_;
};

std::string raw_response(std::string status, std::string content_type, std::string body) {
  std::string out = "HTTP/1.1 " + status + "\r\n";
  if (!content_type.empty()) out += "Content-Type: " + content_type + "\r\n";
  out += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
  return out;
}

std::string result_for(std::int64_t id, const std::string& text) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"result":{"text":")" + text + R"("}})";
}

const std::string hello_notification = R"({"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}})";

/// What the fake server answers, by the request's id (POST) or Last-Event-ID (GET).
std::string fake_answer(const seen_request& req) {
  if (req.method == http::verb::get) {
    if (req.last_event_id == "s9") return raw_response("405 Method Not Allowed", "", "");
    if (req.last_event_id == "s10-0")
      return raw_response("200 OK", "text/event-stream", "id: s10-1\ndata: " + result_for(10, "resumed") + "\n\n");
    // The GET stream: one message per connection, then the connection ends.
    const auto next = req.last_event_id.empty() ? std::string("g1") : req.last_event_id + "+";
    return raw_response("200 OK", "text/event-stream", "retry: 20\nid: " + next + "\ndata: " + hello_notification + "\n\n");
  }
  switch (req.id) {
    case 1: return raw_response("200 OK", "application/json", "this is not JSON {");
    case 2: return raw_response("200 OK", "text/html", "<html>hello</html>");
    case 3: {
      // An event over the bound, an event that is not JSON, then the answer,
      // with CR, LF and CRLF line ends, a comment and a byte order mark.
      std::string events = "\xEF\xBB\xBF: a comment\r\n";
      events += "data: \"" + std::string(3000, 'x') + "\"\n\n";
      events += "data: {not json\r\rid: 3-1\rdata: ";
      events += result_for(3, "through the noise") + "\r\n\r\n";
      return raw_response("200 OK", "text/event-stream", events);
    }
    case 4: {
      // One message split over data lines (joined by LF), an event type.
      const std::string events = "event: message\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":4,\"result\":{}}\n\n";
      return raw_response("200 OK", "text/event-stream; charset=utf-8", events);
    }
    case 5: return raw_response("200 OK", "application/json", result_for(5, std::string(3000, 'y')));
    case 6:
      return raw_response("500 Internal Server Error", "application/json",
                          R"({"jsonrpc":"2.0","id":null,"error":{"code":-32603,"message":"boom"}})");
    case 7: return raw_response("200 OK", "application/json", result_for(7, "fine"));
    case 8:  // a stream that ends without the answer and without an event id
      return raw_response("200 OK", "text/event-stream", "data: " + hello_notification + "\n\n");
    case 9:  // resumable, but the server then refuses to resume
      return raw_response("200 OK", "text/event-stream", "id: s9\nretry: 10\ndata: \n\n");
    case 10:  // resumable, and resumed
      return raw_response("200 OK", "text/event-stream", "id: s10-0\nretry: 10\ndata:\n\n");
    case 11:  // resumable after 300 ms
      return raw_response("200 OK", "text/event-stream", "id: s11-0\nretry: 300\ndata:\n\n");
    default: return raw_response("202 Accepted", "", "");
  }
}

TEST(HttpClient, BrokenAnswersFailTheirCallsAndNeverHang) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    fake_server fake(ex, fake_answer);
    http_client_options options;
    options.mode = http_mode::streamable;
    options.max_message_size = 2048;
    auto transport = co_await connect_http(ex, url_of(fake.port()), std::move(options));
    for (int id = 1; id <= 10; ++id) {
      const auto request = rpc_request(id, "tools/call");
      co_await write_json(*transport, request);
      auto reply = co_await read_json(*transport, 5s);
      if (id == 8) {  // the stream's one message, then the error for the request
        EXPECT_EQ(reply.at("method"), "notifications/message") << reply;
        reply = co_await read_json(*transport, 5s);
      }
      EXPECT_EQ(reply.at("id"), id) << reply;
      const auto* error = reply.as_object().if_contains("error");
      const std::string message = error ? std::string(error->at("message").as_string()) : std::string();
      switch (id) {
        case 1: EXPECT_NE(message.find("not valid JSON"), std::string::npos) << reply; break;
        case 2: EXPECT_NE(message.find("text/html"), std::string::npos) << reply; break;
        case 3: EXPECT_EQ(reply.at("result").at("text"), "through the noise") << reply; break;
        case 4: EXPECT_TRUE(reply.as_object().contains("result")) << reply; break;
        case 5: EXPECT_NE(message.find("max_message_size"), std::string::npos) << reply; break;
        case 6:
          EXPECT_EQ(error_code(reply), -32603) << reply;
          EXPECT_NE(message.find("500"), std::string::npos) << reply;
          EXPECT_NE(message.find("boom"), std::string::npos) << reply;
          break;
        case 7: EXPECT_EQ(reply.at("result").at("text"), "fine") << reply; break;
        case 8: EXPECT_NE(message.find("ended before the answer"), std::string::npos) << reply; break;
        case 9: EXPECT_NE(message.find("does not resume"), std::string::npos) << reply; break;
        case 10: EXPECT_EQ(reply.at("result").at("text"), "resumed") << reply; break;
      }
    }
    co_await transport->close();
    const auto after_close = co_await read_text(*transport, 1s);
    EXPECT_FALSE(after_close) << "read_frame after close() is the end";
  });
}

TEST(HttpClient, GetStreamReconnectsWithTheLastEventId) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    fake_server fake(ex, fake_answer);
    http_client_options options;
    options.mode = http_mode::streamable;
    auto transport = co_await connect_http(ex, url_of(fake.port()), std::move(options));
    // notifications/initialized (202) opens the GET stream.
    const auto note = rpc_notification("notifications/initialized");
    co_await write_json(*transport, note);
    for (int i = 0; i < 3; ++i) {
      const auto message = co_await read_json(*transport, 3s);
      EXPECT_EQ(message.at("method"), "notifications/message") << message;
    }
    std::vector<std::string> resumed_from;
    for (const auto& r : fake.requests())
      if (r.method == http::verb::get) resumed_from.push_back(r.last_event_id);
    CO_ASSERT_TRUE(resumed_from.size() >= 3u);
    EXPECT_EQ(resumed_from[0], "");
    EXPECT_EQ(resumed_from[1], "g1");
    EXPECT_EQ(resumed_from[2], "g1+");
    co_await transport->close();
  });
}

TEST(HttpClient, DroppingTheTransportStopsItsBackgroundWork) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    fake_server fake(ex, fake_answer);
    http_client_options options;
    options.mode = http_mode::streamable;
    auto transport = co_await connect_http(ex, url_of(fake.port()), std::move(options));
    const auto request = rpc_request(11, "tools/call");
    co_await write_json(*transport, request);
    co_await sleep_for(100ms);  // the stream ended; its resumption waits for the retry
    transport.reset();          // no close(): the destructor stops everything
    co_await sleep_for(500ms);
    for (const auto& r : fake.requests())
      EXPECT_NE(r.method, http::verb::get) << "resumed after the transport was gone";
  });
}

TEST(HttpClient, LegacyEndpointMustBeOnTheSameOriginAndComeFirst) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const std::vector<std::pair<std::string, std::string>> cases{
        {"event: endpoint\ndata: http://elsewhere.example/messages\n\n", "another origin"},
        {": nothing but a comment\n\n", "ended before its endpoint event"},
    };
    for (const auto& [events, expected] : cases) {
      fake_server fake(ex, [events = events](const seen_request&) {
        return raw_response("200 OK", "text/event-stream", events);
      });
      http_client_options options;
      options.mode = http_mode::legacy_sse;
      auto transport = co_await connect_http(ex, url_of(fake.port(), "/sse"), std::move(options));
      const auto request = rpc_request(1, "initialize", initialize_params());
      co_await write_json(*transport, request);
      const auto reply = co_await read_json(*transport, 5s);
      const auto* error = reply.as_object().if_contains("error");
      CO_ASSERT_TRUE(error != nullptr);
      const std::string message(error->at("message").as_string());
      EXPECT_NE(message.find(expected), std::string::npos) << message;
      // Nothing was POSTed anywhere.
      for (const auto& r : fake.requests()) EXPECT_EQ(r.method, http::verb::get);
      co_await transport->close();
    }
  });
}

}  // namespace
}  // namespace mcp::test
