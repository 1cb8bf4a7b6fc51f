// Two servers sharing sessions, events and a message bus, as the processes
// of a cluster do (docs/scale-out.md), in one process with the memory
// stores: what a client sees when each of its requests may reach either
// server. (The same with Redis and separate processes: cluster_test.cpp.)

#include "http_client.hpp"
#include "server_pair.hpp"
#include "test_support.hpp"

#include <string>
#include <vector>

namespace mcp::test {
namespace {

void run_cluster_test(http_server_options options, std::function<asio::awaitable<void>(server_pair&)> body) {
  run_pair_test(std::move(options), true, std::move(body));
}

// Opens a session whose client can answer elicitations.
asio::awaitable<std::string> open_eliciting_session(http_connection& c) {
  auto params = initialize_params();
  params["capabilities"] = json::object{{"elicitation", json::object{}}};
  const auto init = rpc_request(0, "initialize", std::move(params));
  const auto req = mcp_post(init);
  const auto reply = co_await c.send(req);
  if (reply.status != 200) throw std::runtime_error("initialize answered " + std::to_string(reply.status));
  auto id = reply.header("Mcp-Session-Id");
  const auto initialized = rpc_notification("notifications/initialized");
  const auto note = session_post(initialized, id);
  co_await c.send(note);
  co_return id;
}

// Starts a tool call on `c`, answered as an SSE stream; returns once its head is read.
asio::awaitable<void> start_streamed_call(http_connection& c, const std::string& session, int id,
                                          std::string_view tool, const json::object& arguments) {
  const auto call = rpc_request(id, "tools/call", tool_call(std::string(tool), arguments, "p"));
  auto req = session_post(call, session);
  req.set("Accept", "text/event-stream, application/json");
  co_await c.write(req);
  const auto head = co_await c.read_head();
  if (head.status != 200) throw std::runtime_error("the call answered " + std::to_string(head.status));
}

TEST(HttpCluster, StreamResumedOnAnotherServerGoesOnLive) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    // The tool lets its connection go after its first progress, and goes on
    // for 2 x 300 ms on a: the client resumes on b while it runs.
    const json::object slow_steps{{"step_ms", 300}};
    co_await start_streamed_call(to_a, session, 7, "release", slow_steps);
    std::string last_id;
    std::vector<std::string> seen;
    while (auto e = co_await to_a.next_event()) {
      last_id = e->id;
      if (!e->data.empty()) seen.push_back(e->data);
    }
    CO_ASSERT_TRUE(seen.size() == 1u);  // "before"

    http_connection to_b(ex, s.b.port());
    auto get = mcp_get(session);
    get.header("Last-Event-ID", last_id);
    co_await to_b.write(get);
    const auto head = co_await to_b.read_head();
    CO_ASSERT_TRUE(head.status == 200u);
    std::vector<json::value> messages;
    while (auto m = co_await to_b.next_message()) messages.push_back(*m);
    // Both later progress notifications, then the answer, each once, in order.
    CO_ASSERT_TRUE(messages.size() == 3u);
    EXPECT_EQ(messages[0].at("params").at("progress").to_number<double>(), 2.0);
    EXPECT_EQ(messages[1].at("params").at("progress").to_number<double>(), 3.0);
    EXPECT_EQ(messages[2].at("id"), 7);
    EXPECT_EQ(first_text(messages[2].at("result").as_object()), "released and done");
  });
}

TEST(HttpCluster, GetStreamOnOneServerCarriesWhatAnotherSends) {
  http_server_options options;
  options.json_only = true;  // what a handler sends during a call goes to the GET stream
  run_cluster_test(options, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    http_connection listener(ex, s.b.port());
    const auto get = mcp_get(session);
    co_await listener.write(get);
    CO_ASSERT_TRUE((co_await listener.read_head()).status == 200u);
    co_await sleep_for(std::chrono::milliseconds(50));  // (the GET stream is b's before the call starts)

    const auto call = rpc_request(3, "tools/call", tool_call("count", json::object{{"steps", 3}}, "tok"));
    const auto req = session_post(call, session);
    const auto reply = co_await to_a.send(req);
    EXPECT_EQ(first_text(reply.json().at("result").as_object()), "counted to 3");
    for (int step = 1; step <= 3; ++step) {
      const auto note = co_await listener.next_message();
      CO_ASSERT_TRUE(note.has_value());
      EXPECT_EQ(note->at("method"), "notifications/progress");
      EXPECT_EQ(note->at("params").at("progress").to_number<double>(), double(step));
    }
  });
}

TEST(HttpCluster, AnswerPostedToAnotherServerReachesTheAskingHandler) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_eliciting_session(to_a);
    const json::object no_arguments;
    co_await start_streamed_call(to_a, session, 5, "confirm", no_arguments);
    const auto ask = co_await to_a.next_message();
    CO_ASSERT_TRUE(ask.has_value());
    CO_ASSERT_TRUE(ask->at("method") == "elicitation/create");

    const json::object content{{"ok", true}};
    const json::object result{{"action", "accept"}, {"content", content}};
    const json::object answer{{"jsonrpc", "2.0"}, {"id", ask->at("id")}, {"result", result}};
    const auto post = session_post(answer, session);
    const auto accepted = co_await http_call(s.b.port(), post);
    EXPECT_EQ(accepted.status, 202u);

    const auto done = co_await to_a.next_message();
    CO_ASSERT_TRUE(done.has_value());
    EXPECT_EQ(done->at("id"), 5);
    EXPECT_EQ(first_text(done->at("result").as_object()), "accept");
  });
}

TEST(HttpCluster, CancellationPostedToAnotherServerStopsTheCall) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    const json::object long_sleep{{"ms", 10'000}};
    co_await start_streamed_call(to_a, session, 11, "slow", long_sleep);
    co_await sleep_for(std::chrono::milliseconds(50));

    const json::object params{{"requestId", 11}, {"reason", "changed my mind"}};
    const auto cancel = rpc_notification("notifications/cancelled", params);
    const auto post = session_post(cancel, session);
    const auto accepted = co_await http_call(s.b.port(), post);
    EXPECT_EQ(accepted.status, 202u);
    // The call's stream ends at once, with no answer.
    const auto rest = co_await to_a.next_message(std::chrono::milliseconds(3000));
    EXPECT_FALSE(rest.has_value());
  });
}

TEST(HttpCluster, DeleteOnOneServerEndsTheCallsOfAnother) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    const json::object long_sleep{{"ms", 10'000}};
    co_await start_streamed_call(to_a, session, 12, "slow", long_sleep);
    co_await sleep_for(std::chrono::milliseconds(50));

    const auto del = mcp_delete(session);
    const auto deleted = co_await http_call(s.b.port(), del);
    EXPECT_EQ(deleted.status, 200u);
    const auto rest = co_await to_a.next_message(std::chrono::milliseconds(3000));
    EXPECT_FALSE(rest.has_value());
    const std::function<bool()> ended = [&] { return s.a.http.session_count() == 0; };
    EXPECT_TRUE(co_await wait_until(ended, std::chrono::milliseconds(3000)));
  });
}

// Opens a GET stream for `session` on `c`.
asio::awaitable<void> open_get_stream(http_connection& c, const std::string& session) {
  const auto get = mcp_get(session);
  co_await c.write(get);
  const auto head = co_await c.read_head();
  if (head.status != 200) throw std::runtime_error("the GET stream answered " + std::to_string(head.status));
}

TEST(HttpCluster, ResourceUpdateRaisedOnOneServerReachesASubscriberThroughAnother) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    const json::object uri{{"uri", "test://watched"}};
    const auto subscribe = rpc_request(2, "resources/subscribe", uri);
    const auto subscribe_req = session_post(subscribe, session);
    CO_ASSERT_TRUE((co_await to_a.send(subscribe_req)).status == 200u);  // a's copy holds the subscription
    http_connection listener(ex, s.b.port());
    co_await open_get_stream(listener, session);
    co_await sleep_for(std::chrono::milliseconds(100));  // (both servers have joined their cluster)

    s.b.tools->notify_resource_updated("test://other");
    s.b.tools->notify_resource_updated("test://watched");
    const auto note = co_await listener.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/resources/updated");
    EXPECT_EQ(note->at("params").at("uri"), "test://watched");
  });
}

TEST(HttpCluster, ListChangedReachesEachSessionOnceWhateverServersServeIt) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    EXPECT_EQ(co_await ping_status(s.b.port(), session), 200u);  // a copy on each server
    http_connection listener(ex, s.b.port());
    co_await open_get_stream(listener, session);
    co_await sleep_for(std::chrono::milliseconds(100));  // (both servers have joined their cluster)

    s.a.tools->notify_tools_changed();
    const auto note = co_await listener.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/tools/list_changed");
    // Only one copy spoke: the next message is the one sent after it.
    s.a.tools->notify_prompts_changed();
    const auto next = co_await listener.next_message();
    CO_ASSERT_TRUE(next.has_value());
    EXPECT_EQ(next->at("method"), "notifications/prompts/list_changed");
  });
}

TEST(HttpCluster, ListenStreamOnOneServerHearsOfChangesRaisedOnAnother) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // A 2026-07-28 subscriptions/listen stream, held by b.
    const json::object filter{{"toolsListChanged", true}};
    const json::object params{{"notifications", filter}};
    const auto req = modern_post(4, "subscriptions/listen", params);
    http_connection listener(ex, s.b.port());
    co_await listener.write(req);
    CO_ASSERT_TRUE((co_await listener.read_head()).status == 200u);
    const auto ack = co_await listener.next_message();
    CO_ASSERT_TRUE(ack.has_value());
    EXPECT_EQ(ack->at("method"), "notifications/subscriptions/acknowledged");
    co_await sleep_for(std::chrono::milliseconds(100));  // (both servers have joined their cluster)

    s.a.tools->notify_tools_changed();
    const auto note = co_await listener.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/tools/list_changed");
  });
}

TEST(HttpCluster, DescribedSessionStateFollowsTheSessionToEveryServer) {
  run_cluster_test({}, [](server_pair& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection to_a(ex, s.a.port());
    const auto session = co_await open_session(to_a);
    // Each call counts on from what the call before it left, on either server.
    for (int call = 1; call <= 6; ++call) {
      const auto tally = rpc_request(call, "tools/call", tool_call("tally", json::object{}));
      const auto req = session_post(tally, session);
      const auto reply = co_await http_call(call % 2 ? s.a.port() : s.b.port(), req);
      CO_ASSERT_TRUE(reply.status == 200u);
      EXPECT_EQ(first_text(reply.json().at("result").as_object()), std::to_string(call));
    }
    // The log level a client sets through one server holds on the other:
    // a message below it is not sent there.
    const json::object warning{{"level", "warning"}};
    const auto set_level = rpc_request(10, "logging/setLevel", warning);
    const auto set_req = session_post(set_level, session);
    CO_ASSERT_TRUE((co_await http_call(s.a.port(), set_req)).status == 200u);
    const auto log = rpc_request(11, "tools/call", tool_call("log", json::object{}));
    auto log_req = session_post(log, session);
    log_req.set("Accept", "text/event-stream, application/json");
    const auto logged = co_await read_sse(s.b.port(), log_req);
    std::size_t notes = 0;
    for (const auto& m : logged.messages) notes += m.as_object().contains("method") ? 1 : 0;
    EXPECT_EQ(notes, 0u) << "an info message went out below the warning level";
  });
}

}  // namespace
}  // namespace mcp::test
