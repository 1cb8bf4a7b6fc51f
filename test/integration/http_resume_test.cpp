// Resumable SSE streams (basic/transports, "Resumability and Redelivery",
// and SSE polling of 2025-11-25): event ids, the priming event and its
// `retry`, a stream whose connection the server lets go or the client drops,
// resumed with GET and Last-Event-ID without losing or repeating a message.

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "test_support.hpp"

#include <boost/describe.hpp>

#include <string>
#include <vector>

namespace mcp::test {
namespace {

struct shout_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(shout_args, (), (text))

http_server_options resumable_options() {
  http_server_options options;
  options.retry_interval = std::chrono::milliseconds(250);
  return options;
}

/// A POST of `message` that asks for an SSE stream.
http_request streaming_post(const json::value& message, const std::string& session_id) {
  auto req = session_post(message, session_id);
  req.set("Accept", "text/event-stream, application/json");
  return req;
}

http_request resume_get(const std::string& session_id, const std::string& last_event_id) {
  auto req = mcp_get(session_id);
  req.header(std::string(version_header), "2025-11-25");
  req.header("Last-Event-ID", last_event_id);
  return req;
}

/// Every event until the body ends.
asio::awaitable<std::vector<sse_event>> all_events(http_connection& c) {
  std::vector<sse_event> events;
  while (auto e = co_await c.next_event()) events.push_back(std::move(*e));
  co_return events;
}

std::vector<double> progress_values(const std::vector<sse_event>& events) {
  std::vector<double> values;
  for (const auto& e : events) {
    if (e.data.empty()) continue;
    const auto message = json::parse(e.data);
    if (message.as_object().contains("method") && message.at("method") == "notifications/progress")
      values.push_back(message.at("params").at("progress").to_number<double>());
  }
  return values;
}

bool has_result(const std::vector<sse_event>& events, std::int64_t id) {
  for (const auto& e : events) {
    if (e.data.empty()) continue;
    const auto message = json::parse(e.data);
    if (message.as_object().contains("result") && message.at("id") == id) return true;
  }
  return false;
}

TEST(HttpResume, SseStreamsStartWithAPrimingEventAndRetry) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto call = rpc_request(1, "tools/call", tool_call("count", json::object{{"steps", 2}}, "p"));
    const auto req = streaming_post(call, session);
    co_await c.write(req);
    const auto head = co_await c.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    const auto events = co_await all_events(c);
    CO_ASSERT_TRUE(!events.empty());
    EXPECT_FALSE(events.front().id.empty()) << "the priming event has an id";
    EXPECT_EQ(events.front().data, "") << "the priming event carries no message";
    EXPECT_EQ(c.retry(), 250);
    std::set<std::string> ids;
    for (const auto& e : events) ids.insert(e.id);
    EXPECT_EQ(ids.size(), events.size()) << "every event has its own id";
    EXPECT_TRUE(has_result(events, 1));
  });
}

// An answer ready at once goes out in one write with its priming event
// (http_session_transport::take_answer_event): it is still recorded, and a
// client whose connection broke after the priming event gets it on resuming.
TEST(HttpResume, AnAnswerReadyAtOnceIsReplayedAfterItsPrimingEvent) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    s.tools->add_tool("shout", "Says the text back, at once",
                      non_blocking([](const shout_args& a) { return a.text + "!"; }));
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    const auto call = rpc_request(3, "tools/call", tool_call("shout", json::object{{"text", "hi"}}));
    const auto req = streaming_post(call, session);
    co_await c.write(req);
    const auto head = co_await c.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    const auto events = co_await all_events(c);
    CO_ASSERT_TRUE(events.size() == 2u);
    EXPECT_EQ(events[0].data, "") << "the priming event";
    EXPECT_TRUE(has_result(events, 3));
    EXPECT_NE(events[0].id, events[1].id);

    http_connection resumed(ex, s.port());
    const auto get = resume_get(session, events[0].id);
    co_await resumed.write(get);
    const auto resumed_head = co_await resumed.read_head();
    EXPECT_EQ(resumed_head.status, 200u);
    const auto replayed = co_await all_events(resumed);
    CO_ASSERT_TRUE(replayed.size() == 1u);
    EXPECT_EQ(replayed[0].id, events[1].id) << "the answer, under the id it went out with";
    EXPECT_EQ(replayed[0].data, events[1].data);
  });
}

TEST(HttpResume, StreamTheServerLetsGoIsResumedWithLastEventId) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    const auto call = rpc_request(7, "tools/call", tool_call("release", json::object{}, "r"));
    const auto req = streaming_post(call, session);
    co_await c.write(req);
    co_await c.read_head();
    const auto before = co_await all_events(c);  // ends when the tool lets the connection go
    CO_ASSERT_TRUE(!before.empty());
    EXPECT_EQ(progress_values(before), std::vector<double>{1.0});
    EXPECT_FALSE(has_result(before, 7)) << "the result comes after the connection was let go";
    EXPECT_EQ(c.retry(), 250) << "the server says when to come back";

    http_connection resumed(ex, s.port());
    const auto get = resume_get(session, before.back().id);
    co_await resumed.write(get);
    const auto head = co_await resumed.read_head();
    EXPECT_EQ(head.status, 200u);
    EXPECT_EQ(head.content_type(), "text/event-stream");
    const auto after = co_await all_events(resumed);
    EXPECT_EQ(progress_values(after), (std::vector<double>{2.0, 3.0})) << "nothing lost, nothing repeated";
    EXPECT_TRUE(has_result(after, 7));
  });
}

TEST(HttpResume, ClientThatDropsMidStreamMissesNothing) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection setup(ex, s.port());
    const auto session = co_await open_session(setup);
    const auto args = json::object{{"steps", 6}, {"step_ms", 30}};
    const auto call = rpc_request(3, "tools/call", tool_call("count", args, "d"));
    const auto req = streaming_post(call, session);
    std::string last_id;
    std::vector<sse_event> seen;
    {
      http_connection c(ex, s.port());
      co_await c.write(req);
      co_await c.read_head();
      while (progress_values(seen).empty()) {
        auto e = co_await c.next_event();
        CO_ASSERT_TRUE(e.has_value());
        seen.push_back(*e);
      }
      last_id = seen.back().id;
      c.close();  // the network fails mid-call
    }
    co_await sleep_for(std::chrono::milliseconds(100));  // the tool goes on meanwhile

    http_connection resumed(ex, s.port());
    const auto get = resume_get(session, last_id);
    co_await resumed.write(get);
    const auto head = co_await resumed.read_head();
    CO_ASSERT_TRUE(head.status == 200u);
    const auto rest = co_await all_events(resumed);
    auto values = progress_values(seen);
    const auto more = progress_values(rest);
    values.insert(values.end(), more.begin(), more.end());
    EXPECT_EQ(values, (std::vector<double>{1, 2, 3, 4, 5, 6})) << "every step exactly once, in order";
    EXPECT_TRUE(has_result(rest, 3));
  });
}

TEST(HttpResume, GetStreamMessagesSentWhileDisconnectedAreReplayed) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    std::string last_id;
    {
      http_connection listener(ex, s.port());
      auto get = mcp_get(session);
      co_await listener.write(get);
      const auto head = co_await listener.read_head();
      CO_ASSERT_TRUE(head.status == 200u);
      const auto priming = co_await listener.next_event();
      CO_ASSERT_TRUE(priming.has_value());
      EXPECT_EQ(priming->data, "");
      last_id = priming->id;
      listener.close();
    }
    co_await sleep_for(std::chrono::milliseconds(50));  // the server notices the drop
    mcp::tool_info late;
    late.name = "late";
    s.tools->add_tool(late, [](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
      co_return mcp::call_tool_result::text("late");
    });
    co_await sleep_for(std::chrono::milliseconds(50));

    http_connection resumed(ex, s.port());
    const auto get = resume_get(session, last_id);
    co_await resumed.write(get);
    const auto head = co_await resumed.read_head();
    CO_ASSERT_TRUE(head.status == 200u);
    const auto note = co_await resumed.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/tools/list_changed");
  });
}

TEST(HttpResume, OlderVersionsGetEventIdsButNoPrimingEvent) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c, "2025-03-26");
    const auto call = rpc_request(1, "tools/call", tool_call("count", json::object{{"steps", 2}}, "p"));
    auto req = streaming_post(call, session);
    req.set(std::string(version_header), "2025-03-26");
    co_await c.write(req);
    co_await c.read_head();
    const auto events = co_await all_events(c);
    CO_ASSERT_TRUE(!events.empty());
    for (const auto& e : events) {
      EXPECT_FALSE(e.data.empty()) << "no priming event before 2025-11-25";
      EXPECT_FALSE(e.id.empty()) << "but every event can be resumed from";
    }
    EXPECT_FALSE(c.retry().has_value());
    EXPECT_TRUE(has_result(events, 1));
  });
}

TEST(HttpResume, LastEventIdRules) {
  run_http_test(resumable_options(), [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);

    const auto malformed = resume_get(session, "not-an-event-id");
    const auto bad = co_await http_call(s.port(), malformed);
    EXPECT_EQ(bad.status, 400u);

    // A stream still carried by its POST cannot be read twice at once.
    const auto args = json::object{{"steps", 4}, {"step_ms", 50}};
    const auto call = rpc_request(5, "tools/call", tool_call("count", args, "t"));
    const auto req = streaming_post(call, session);
    http_connection poster(ex, s.port());
    co_await poster.write(req);
    co_await poster.read_head();
    const auto priming = co_await poster.next_event();
    CO_ASSERT_TRUE(priming.has_value());
    const auto twice = resume_get(session, priming->id);
    const auto conflict = co_await http_call(s.port(), twice);
    EXPECT_EQ(conflict.status, 409u);
    const auto rest = co_await all_events(poster);
    EXPECT_TRUE(has_result(rest, 5));

    // A finished stream resumed after its last event: nothing to replay, and
    // the stream is held open rather than ended (clients would reconnect).
    http_connection late(ex, s.port());
    const auto again = resume_get(session, rest.back().id);
    co_await late.write(again);
    const auto head = co_await late.read_head();
    EXPECT_EQ(head.status, 200u);
    EXPECT_EQ(head.content_type(), "text/event-stream");
    late.close();

    // Resuming needs the session.
    const auto foreign = resume_get("no-such-session", priming->id);
    const auto unknown = co_await http_call(s.port(), foreign);
    EXPECT_EQ(unknown.status, 404u);
  });
}

TEST(HttpResume, OpenStreamsPerSessionAreBounded) {
  auto options = resumable_options();
  options.max_streams_per_session = 2;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    http_connection listener(ex, s.port());
    const auto get = mcp_get(session);
    co_await listener.write(get);
    const auto opened = co_await listener.read_head();
    CO_ASSERT_TRUE(opened.status == 200u);

    http_connection slow(ex, s.port());
    const auto slow_call = rpc_request(1, "tools/call", tool_call("slow", json::object{{"ms", 300}}));
    const auto slow_req = session_post(slow_call, session);
    co_await slow.write(slow_req);
    co_await sleep_for(std::chrono::milliseconds(50));

    const auto third = echo_call(2, "one too many");
    const auto third_req = session_post(third, session);
    const auto refused = co_await http_call(s.port(), third_req);
    EXPECT_EQ(refused.status, 429u);

    const auto answered = co_await slow.read_response();
    EXPECT_EQ(answered.status, 200u);
    const auto retried = co_await http_call(s.port(), third_req);
    EXPECT_EQ(retried.status, 200u) << "a freed slot is usable again";
  });
}

}  // namespace
}  // namespace mcp::test
