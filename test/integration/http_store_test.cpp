// Sessions and events kept in stores that several servers share: any server
// serves any session, and a stream is resumed on another server than the one
// that ran it. Two http_servers in one process, sharing the default memory
// stores, stand for two processes sharing a database.

#include "http_client.hpp"
#include "server_pair.hpp"
#include "test_support.hpp"

#include <string>
#include <vector>

namespace mcp::test {
namespace {

TEST(HttpSharedStores, AnyServerServesASessionAnotherOpened) {
  run_pair_test({}, false, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    EXPECT_EQ(s.b.http.session_count(), 0u);

    const auto call = echo_call(1, "via b");
    const auto req = session_post(call, session);
    const auto reply = co_await http_call(s.b.port(), req);
    CO_ASSERT_TRUE(reply.status == 200u);
    EXPECT_EQ(first_text(reply.json().at("result").as_object()), "via b");
    EXPECT_EQ(s.b.http.session_count(), 1u) << "b now serves the session too";

    // It goes on serving the session from what the handshake settled.
    const auto ping = rpc_request(2, "ping");
    const auto ping_req = session_post(ping, session);
    const auto pong = co_await http_call(s.b.port(), ping_req);
    EXPECT_EQ(pong.status, 200u);
  });
}

TEST(HttpSharedStores, DeletedSessionIsGoneForEveryServer) {
  run_pair_test({}, false, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    const auto del = mcp_delete(session);
    const auto deleted = co_await to_a.send(del);
    EXPECT_EQ(deleted.status, 200u);
    EXPECT_EQ(co_await ping_status(s.b.port(), session), 404u);
    EXPECT_EQ(co_await ping_status(s.a.port(), session), 404u);
  });
}

TEST(HttpSharedStores, SessionDeletedThroughOneServerEndsOnTheOtherToo) {
  run_pair_test({}, false, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    EXPECT_EQ(co_await ping_status(s.b.port(), session), 200u);  // b runs a copy now
    const auto del = mcp_delete(session);
    const auto deleted = co_await http_call(s.a.port(), del);
    EXPECT_EQ(deleted.status, 200u);
    EXPECT_EQ(co_await ping_status(s.b.port(), session), 404u) << "b's copy ends with the record";
  });
}

TEST(HttpSharedStores, UnknownSessionIs404Everywhere) {
  run_pair_test({}, false, [](server_pair& s) -> asio::awaitable<void> {
    EXPECT_EQ(co_await ping_status(s.b.port(), "0123456789abcdef0123456789abcdef"), 404u);
    EXPECT_EQ(s.b.http.session_count(), 0u);
  });
}

TEST(HttpSharedStores, StreamRunOnOneServerIsReplayedByAnother) {
  run_pair_test({}, false, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    const auto call = rpc_request(9, "tools/call", tool_call("release", json::object{}, "x"));
    auto req = session_post(call, session);
    req.set("Accept", "text/event-stream, application/json");
    co_await to_a.write(req);
    co_await to_a.read_head();
    std::string last_id;
    while (auto e = co_await to_a.next_event()) last_id = e->id;  // ends when the tool lets go
    co_await sleep_for(std::chrono::milliseconds(150));           // the call finishes on a

    http_connection to_b(ex, s.b.port());
    auto get = mcp_get(session);
    get.header("Last-Event-ID", last_id);
    co_await to_b.write(get);
    const auto head = co_await to_b.read_head();
    CO_ASSERT_TRUE(head.status == 200u);
    std::vector<json::value> messages;
    while (auto m = co_await to_b.next_message()) messages.push_back(*m);
    CO_ASSERT_TRUE(!messages.empty());
    EXPECT_EQ(messages.back().at("id"), 9);
    EXPECT_EQ(first_text(messages.back().at("result").as_object()), "released and done");
  });
}

}  // namespace
}  // namespace mcp::test
