// The HTTP server on 4 threads under many clients at once: sessions opened,
// called, their calls cancelled, their GET streams held, and deleted, all
// interleaved. Every answer must reach its own client, nothing may hang, and
// every session must be gone at the end. (The ThreadSanitizer job runs it.)

#include "http_test_server.hpp"

#include <gtest/gtest.h>

#include <atomic>

namespace mcp::test {
namespace {

constexpr unsigned server_threads_used = 4;
constexpr int clients = 32;
constexpr int rounds = 6;

struct tally {
  int echoes = 0;
  int cancelled = 0;
  int deleted = 0;
  int refused_after_delete = 0;
  int streams = 0;
};

// One client's life, `rounds` times over: a session on a connection of its
// own, an echo, a GET stream that ends with the session, a long call on a
// third connection cancelled from the first, a DELETE, and a POST that must
// then be refused.
asio::awaitable<void> one_client(std::uint16_t port, int n, tally& seen) {
  auto ex = co_await asio::this_coro::executor;
  for (int round = 0; round < rounds; ++round) {
    http_connection c(ex, port);
    const auto session = co_await open_session(c);
    const auto text = "client " + std::to_string(n) + " round " + std::to_string(round);
    const auto echo = co_await c.send(session_post(echo_call(1, text), session));
    EXPECT_EQ(echo.status, 200u);
    if (echo.status == 200 && first_text(echo.json().at("result").as_object()) == text) ++seen.echoes;

    http_connection stream(ex, port);
    co_await stream.write(mcp_get(session));
    const auto head = co_await stream.read_head();
    EXPECT_EQ(head.status, 200u);
    if (head.status == 200) ++seen.streams;

    // A long call, cancelled once it has begun (its first progress), from
    // the first connection: its stream ends without a result.
    http_connection caller(ex, port);
    // (Requests are built before they are awaited: g++ 12 cannot keep a
    // string literal's array in a coroutine frame.)
    const auto long_call = session_post(
        rpc_request(2, "tools/call", tool_call("count", json::object{{"steps", 200}, {"step_ms", 25}}, "p")), session);
    co_await caller.write(long_call);
    const auto call_head = co_await caller.read_head();
    EXPECT_EQ(call_head.content_type(), "text/event-stream");
    const auto first = co_await caller.next_message();
    EXPECT_TRUE(first && first->at("method") == "notifications/progress");
    const auto cancel = session_post(rpc_notification("notifications/cancelled", json::object{{"requestId", 2}}), session);
    const auto accepted = co_await c.send(cancel);
    EXPECT_EQ(accepted.status, 202u);
    bool answered = false;
    while (auto m = co_await caller.next_message()) answered = answered || m->as_object().contains("id");
    EXPECT_FALSE(answered);
    if (!answered) ++seen.cancelled;

    const auto gone = co_await c.send(mcp_delete(session));
    EXPECT_EQ(gone.status, 200u);
    if (gone.status == 200) ++seen.deleted;
    // The GET stream ends with its session.
    const auto rest = co_await stream.rest_of_body(4s);
    (void)rest;
    const auto late = session_post(echo_call(3, "too late"), session);
    const auto after = co_await c.send(late);
    EXPECT_EQ(after.status, 404u);
    if (after.status == 404) ++seen.refused_after_delete;
  }
}

TEST(HttpStress, ManyClientsOpenCallCancelAndDeleteSessionsAtOnce) {
  run_test(
      [&]() -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        test_server server(ex, http_server_options{}, server_threads_used);
        tally seen;
        std::atomic<int> done = 0;
        for (int n = 0; n < clients; ++n)
          asio::co_spawn(ex, one_client(server.port(), n, seen), [&done](std::exception_ptr e) {
            if (e) {
              try {
                std::rethrow_exception(e);
              } catch (const std::exception& failure) {
                ADD_FAILURE() << "a client failed: " << failure.what();
              }
            }
            ++done;
          });
        const std::function<bool()> all_done = [&] { return done == clients; };
        const bool finished = co_await wait_until(all_done, 40s);
        EXPECT_TRUE(finished) << done << " of " << clients << " clients finished";
        const int expected = clients * rounds;
        EXPECT_EQ(seen.echoes, expected);
        EXPECT_EQ(seen.streams, expected);
        EXPECT_EQ(seen.deleted, expected);
        EXPECT_EQ(seen.refused_after_delete, expected);
        EXPECT_EQ(seen.cancelled, expected);
        const std::function<bool()> none_left = [&] { return server.http.session_count() == 0; };
        EXPECT_TRUE(co_await wait_until(none_left, 5s)) << server.http.session_count() << " sessions left";
        co_await server.stop_and_wait();
      },
      60s);
}

}  // namespace
}  // namespace mcp::test
