// The legacy HTTP+SSE transport of 2024-11-05 (spec 2024-11-05:
// basic/transports, "HTTP with SSE"; 2025-03-26: "Backwards Compatibility")
// on real sockets, as a client of that era sees it: GET /sse opens a session
// whose stream starts with an `endpoint` event, every POST to that endpoint
// is answered 202 and its replies (and everything else the server sends)
// arrive on the stream as `message` events; closing the stream ends the
// session. Beside it, the error statuses, Origin/Host checks, and the cases
// where the transport is off.

#include <mcp/error.hpp>
#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "legacy_session.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

constexpr std::string_view unknown_id = "0123456789abcdef0123456789abcdef";

/// A request with a body that is not JSON-RPC at all.
http_request raw_post(std::string target, std::string content_type, std::string body) {
  http_request req(http::verb::post, std::move(target));
  if (!content_type.empty()) req.header("Content-Type", std::move(content_type));
  req.body = std::move(body);
  return req;
}

std::vector<std::string> tool_names(const json::value& list_reply) {
  std::vector<std::string> names;
  for (const auto& tool : list_reply.at("result").at("tools").as_array())
    names.emplace_back(tool.at("name").as_string());
  return names;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

/// POSTs a ping to `endpoint` on a connection of its own: its status.
asio::awaitable<unsigned> legacy_ping_status(std::uint16_t port, const std::string& endpoint) {
  const auto ping = rpc_request("probe", "ping");
  const auto req = legacy_post(ping, endpoint);
  const auto reply = co_await http_call(port, req);
  co_return reply.status;
}

/// Polls (every 20 ms, for at most `limit`) until a POST to `endpoint` gets 404.
asio::awaitable<bool> becomes_unknown(std::uint16_t port, const std::string& endpoint,
                                      std::chrono::milliseconds limit) {
  const auto until = clock_type::now() + limit;
  for (;;) {
    const auto status = co_await legacy_ping_status(port, endpoint);
    if (status == 404) co_return true;
    if (clock_type::now() > until) co_return false;
    co_await sleep_for(20ms);
  }
}

asio::awaitable<bool> session_count_reaches(test_server& s, std::size_t n, std::chrono::milliseconds limit) {
  const std::function<bool()> reached = [&] { return s.http.session_count() == n; };
  co_return co_await wait_until(reached, limit);
}

// --- the stream and its endpoint event ------------------------------------------

TEST(HttpLegacy, GetSseOpensAStreamThatStartsWithTheEndpointEvent) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    co_await a.open();
    EXPECT_EQ(a.head.status, 200u);
    EXPECT_EQ(a.head.content_type(), "text/event-stream");
    EXPECT_EQ(a.head.header(http::field::cache_control), "no-cache");
    EXPECT_FALSE(a.head.has("Mcp-Session-Id"));  // the session is named in the endpoint, not a header
    EXPECT_TRUE(a.endpoint_event.id.empty()) << a.endpoint_event.id;
    // A relative URI on this server: /messages?sessionId=<id>.
    EXPECT_TRUE(a.endpoint.starts_with("/messages?sessionId=")) << a.endpoint;
    EXPECT_GE(a.id.size(), 32u);
    EXPECT_TRUE(visible_ascii(a.id)) << a.id;
    EXPECT_EQ(s.http.session_count(), 1u);

    // Every GET is a session of its own.
    legacy_session b(ex, s.port());
    co_await b.open();
    EXPECT_NE(b.id, a.id);
    EXPECT_EQ(s.http.session_count(), 2u);
    a.close();
    b.close();
  });
}

TEST(HttpLegacy, CustomPathsAreUsedForTheStreamAndNamedInTheEndpoint) {
  http_server_options options;
  options.legacy_sse_path = "/legacy/events";
  options.legacy_messages_path = "/legacy/post";
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto old_get = sse_get();
    const auto old_path = co_await http_call(s.port(), old_get);
    EXPECT_EQ(old_path.status, 404u);

    legacy_session a(ex, s.port());
    std::string events_path = "/legacy/events";
    co_await a.open(std::move(events_path));
    EXPECT_TRUE(a.endpoint.starts_with("/legacy/post?sessionId=")) << a.endpoint;
    const auto init = co_await a.initialize();
    EXPECT_EQ(init.at("result").at("protocolVersion"), legacy_version);
    const auto echo = echo_call(1, "through custom paths");
    const auto status = co_await a.post_status(echo);
    EXPECT_EQ(status, 202u);
    const auto reply = co_await a.next();
    EXPECT_EQ(first_text(reply.at("result").as_object()), "through custom paths");

    // The default POST path is not served any more.
    const auto old_post = legacy_post(echo, "/messages?sessionId=" + a.id);
    const auto not_there = co_await http_call(s.port(), old_post);
    EXPECT_EQ(not_there.status, 404u);
    a.close();
  });
}

// --- a whole session --------------------------------------------------------------

TEST(HttpLegacy, AWholeSessionRunsOverPostsAndTheStream) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    legacy_session a(co_await asio::this_coro::executor, s.port());
    co_await a.open();

    auto params = initialize_params(std::string(legacy_version));
    const auto init = rpc_request(0, "initialize", std::move(params));
    const auto accepted = co_await a.post(init);
    EXPECT_EQ(accepted.status, 202u);
    EXPECT_EQ(accepted.body, "Accepted");
    const auto init_reply = co_await a.next();
    EXPECT_EQ(init_reply.at("jsonrpc"), "2.0");
    EXPECT_EQ(init_reply.at("id"), 0);
    EXPECT_EQ(init_reply.at("result").at("protocolVersion"), legacy_version);
    EXPECT_EQ(init_reply.at("result").at("serverInfo").at("name"), "http-test");
    EXPECT_TRUE(init_reply.at("result").at("capabilities").as_object().contains("tools"));

    const auto initialized = rpc_notification("notifications/initialized");
    const auto ack = co_await a.post(initialized);
    EXPECT_EQ(ack.status, 202u);

    // Nothing came for the notification: the next message answers tools/list.
    const auto list = rpc_request(1, "tools/list");
    const auto list_status = co_await a.post_status(list);
    EXPECT_EQ(list_status, 202u);
    const auto tools = co_await a.next();
    EXPECT_EQ(tools.at("id"), 1);
    const auto names = tool_names(tools);
    for (const auto* name : {"echo", "count", "log", "release", "slow"}) EXPECT_TRUE(contains(names, name)) << name;

    // Progress, then the result, in order on the one stream.
    auto count = tool_call("count", json::object{{"steps", 4}}, "tok-legacy");
    const auto call = rpc_request(2, "tools/call", std::move(count));
    const auto call_status = co_await a.post_status(call);
    EXPECT_EQ(call_status, 202u);
    for (int i = 1; i <= 4; ++i) {
      const auto note = co_await a.next();
      EXPECT_EQ(note.at("method"), "notifications/progress");
      EXPECT_FALSE(note.as_object().contains("id"));
      EXPECT_EQ(note.at("params").at("progressToken"), "tok-legacy");
      EXPECT_EQ(note.at("params").at("progress").to_number<double>(), double(i));
      EXPECT_EQ(note.at("params").at("total").to_number<double>(), 4.0);
      // `message` on progress came with 2025-03-26.
      EXPECT_FALSE(note.at("params").as_object().contains("message")) << json::serialize(note);
    }
    const auto result = co_await a.next();
    EXPECT_EQ(result.at("id"), 2);
    EXPECT_EQ(first_text(result.at("result").as_object()), "counted to 4");

    // A log line of a call comes before its result.
    auto log = tool_call("log", json::object{});
    const auto log_call = rpc_request(3, "tools/call", std::move(log));
    const auto log_status = co_await a.post_status(log_call);
    EXPECT_EQ(log_status, 202u);
    const auto line = co_await a.next();
    EXPECT_EQ(line.at("method"), "notifications/message");
    EXPECT_EQ(line.at("params").at("data"), "a line from the tool");
    const auto logged = co_await a.next();
    EXPECT_EQ(logged.at("id"), 3);

    // A notification of the server's own goes on the stream too.
    mcp::tool_info late;
    late.name = "late";
    s.tools->add_tool(late, [](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
      co_return mcp::call_tool_result::text("late");
    });
    const auto changed = co_await a.next();
    EXPECT_EQ(changed.at("method"), "notifications/tools/list_changed");

    // An unknown method is a JSON-RPC error on the stream, the POST still 202.
    const auto bogus = rpc_request(4, "no/such/method");
    const auto bogus_status = co_await a.post_status(bogus);
    EXPECT_EQ(bogus_status, 202u);
    const auto error = co_await a.next();
    EXPECT_EQ(error.at("id"), 4);
    EXPECT_EQ(error_code(error), -32601);
    a.close();
  });
}

TEST(HttpLegacy, NewerVersionsAreNegotiatedOverTheLegacyTransportToo) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    for (const std::string version : {"2025-03-26", "2025-11-25"}) {
      legacy_session a(ex, s.port());
      co_await a.open();
      json::object none;
      const auto init = co_await a.initialize(version, std::move(none));
      EXPECT_EQ(json::value_to<std::string>(init.at("result").at("protocolVersion")), version);
      auto count = tool_call("count", json::object{{"steps", 2}}, 7);
      const auto call = rpc_request(1, "tools/call", std::move(count));
      const auto status = co_await a.post_status(call);
      EXPECT_EQ(status, 202u);
      const auto first = co_await a.next();
      EXPECT_EQ(first.at("params").at("message"), "step 1");
      const auto second = co_await a.next();
      EXPECT_EQ(second.at("params").at("progress").to_number<double>(), 2.0);
      const auto result = co_await a.next();
      EXPECT_EQ(first_text(result.at("result").as_object()), "counted to 2");
      a.close();
    }
  });
}

TEST(HttpLegacy, JsonOnlyServerStillStreamsEverythingOnTheLegacyStream) {
  http_server_options options;
  options.json_only = true;  // a Streamable HTTP option: the legacy stream is unchanged
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    legacy_session a(co_await asio::this_coro::executor, s.port());
    co_await a.open();
    co_await a.initialize();
    auto count = tool_call("count", json::object{{"steps", 3}}, "json-only");
    const auto call = rpc_request(1, "tools/call", std::move(count));
    const auto reply = co_await a.post(call);
    EXPECT_EQ(reply.status, 202u);
    EXPECT_EQ(reply.body, "Accepted");
    for (int i = 1; i <= 3; ++i) {
      const auto note = co_await a.next();
      EXPECT_EQ(note.at("method"), "notifications/progress");
      EXPECT_EQ(note.at("params").at("progress").to_number<double>(), double(i));
    }
    const auto result = co_await a.next();
    EXPECT_EQ(first_text(result.at("result").as_object()), "counted to 3");
    a.close();
  });
}

TEST(HttpLegacy, ServerRequestsAreAnsweredThroughThePostEndpoint) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    mcp::tool_info ask;
    ask.name = "ask_roots";
    s.tools->add_tool(ask, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
      auto roots = co_await ctx.roots();
      co_return mcp::call_tool_result::text(json::serialize(roots));
    });
    legacy_session a(co_await asio::this_coro::executor, s.port());
    co_await a.open();
    json::object capabilities{{"roots", json::object{}}};
    std::string version(legacy_version);
    co_await a.initialize(std::move(version), std::move(capabilities));

    auto params = tool_call("ask_roots", json::object{});
    const auto call = rpc_request(5, "tools/call", std::move(params));
    const auto status = co_await a.post_status(call);
    EXPECT_EQ(status, 202u);
    const auto request = co_await a.next();
    EXPECT_EQ(request.at("method"), "roots/list");
    CO_ASSERT_TRUE(request.as_object().contains("id"));

    json::object root{{"uri", "file:///tmp/legacy"}, {"name", "legacy"}};
    json::object result{{"roots", json::array{std::move(root)}}};
    json::object answer{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", std::move(result)}};
    const auto answered = co_await a.post_status(answer);
    EXPECT_EQ(answered, 202u);
    const auto reply = co_await a.next();
    EXPECT_EQ(reply.at("id"), 5);
    EXPECT_NE(first_text(reply.at("result").as_object()).find("file:///tmp/legacy"), std::string::npos)
        << json::serialize(reply);
    a.close();
  });
}

TEST(HttpLegacy, TwoSessionsNeverSeeEachOthersMessages) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    legacy_session b(ex, s.port());
    co_await a.open();
    co_await b.open();
    co_await a.initialize();
    co_await b.initialize();
    // A Streamable HTTP session beside them.
    http_connection c(ex, s.port());
    const auto modern = co_await open_session(c);
    EXPECT_EQ(s.http.session_count(), 3u);

    // Same request ids in both sessions: each gets its own answer.
    const auto from_a = echo_call(1, "from a");
    const auto from_b = echo_call(1, "from b");
    const auto sa = co_await a.post_status(from_a);
    const auto sb = co_await b.post_status(from_b);
    EXPECT_EQ(sa, 202u);
    EXPECT_EQ(sb, 202u);
    const auto reply_b = co_await b.next();
    const auto reply_a = co_await a.next();
    EXPECT_EQ(first_text(reply_a.at("result").as_object()), "from a");
    EXPECT_EQ(first_text(reply_b.at("result").as_object()), "from b");

    // A's progress stays on A's stream: B's next message is its own ping answer.
    auto count = tool_call("count", json::object{{"steps", 3}}, "a-only");
    const auto call = rpc_request(2, "tools/call", std::move(count));
    const auto call_status = co_await a.post_status(call);
    EXPECT_EQ(call_status, 202u);
    for (int i = 1; i <= 3; ++i) {
      const auto note = co_await a.next();
      EXPECT_EQ(note.at("params").at("progressToken"), "a-only");
    }
    const auto counted = co_await a.next();
    EXPECT_EQ(counted.at("id"), 2);
    const auto ping = rpc_request(3, "ping");
    const auto ping_status = co_await b.post_status(ping);
    EXPECT_EQ(ping_status, 202u);
    const auto pong = co_await b.next();
    EXPECT_EQ(pong.at("id"), 3);
    EXPECT_TRUE(pong.at("result").is_object());

    // The Streamable session answers as usual.
    const auto echo = echo_call(4, "modern");
    const auto modern_req = session_post(echo, modern);
    const auto modern_reply = co_await c.send(modern_req);
    EXPECT_EQ(modern_reply.status, 200u);
    EXPECT_EQ(first_text(modern_reply.json().at("result").as_object()), "modern");

    // Ending A leaves B alone.
    a.close();
    const bool a_gone = co_await becomes_unknown(s.port(), a.endpoint, 5s);
    EXPECT_TRUE(a_gone);
    const auto still = echo_call(5, "b goes on");
    const auto still_status = co_await b.post_status(still);
    EXPECT_EQ(still_status, 202u);
    const auto b_reply = co_await b.next();
    EXPECT_EQ(first_text(b_reply.at("result").as_object()), "b goes on");
    b.close();
  });
}

// --- what a POST must look like ----------------------------------------------------

TEST(HttpLegacy, PostWithoutASessionIdIs400) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    const auto ping = rpc_request(1, "ping");
    for (const auto* target : {"/messages", "/messages?sessionId=", "/messages?session=abc", "/messages?"}) {
      const auto req = legacy_post(ping, target);
      const auto reply = co_await http_call(s.port(), req);
      EXPECT_EQ(reply.status, 400u) << target;
      EXPECT_EQ(reply.content_type(), "application/json") << target;
      const auto body = reply.json();
      EXPECT_EQ(error_code(body), errc::invalid_request) << target;
      EXPECT_TRUE(body.at("id").is_null()) << target;
    }
    EXPECT_EQ(s.http.session_count(), 0u);
  });
}

TEST(HttpLegacy, PostToAnUnknownSessionIs404) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto ping = rpc_request(1, "ping");
    const auto unknown = legacy_post(ping, "/messages?sessionId=" + std::string(unknown_id));
    const auto reply = co_await http_call(s.port(), unknown);
    EXPECT_EQ(reply.status, 404u);
    EXPECT_EQ(error_code(reply.json()), errc::invalid_request);

    // A Streamable HTTP session is no legacy session.
    http_connection c(ex, s.port());
    const auto modern = co_await open_session(c);
    const auto modern_req = legacy_post(ping, "/messages?sessionId=" + modern);
    const auto modern_reply = co_await http_call(s.port(), modern_req);
    EXPECT_EQ(modern_reply.status, 404u);
    // ... and it is unharmed.
    const auto status = co_await ping_status(s.port(), modern);
    EXPECT_EQ(status, 200u);
  });
}

TEST(HttpLegacy, PostThatIsNotJsonIsRefused) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    legacy_session a(co_await asio::this_coro::executor, s.port());
    co_await a.open();
    co_await a.initialize();
    const auto ping = json::serialize(rpc_request(1, "ping"));

    const auto text = raw_post(a.endpoint, "text/plain", ping);
    const auto as_text = co_await a.poster.send(text);
    EXPECT_EQ(as_text.status, 415u);
    EXPECT_EQ(error_code(as_text.json()), errc::invalid_request);

    const auto untyped = raw_post(a.endpoint, "", ping);
    const auto no_type = co_await a.poster.send(untyped);
    EXPECT_EQ(no_type.status, 415u);

    const auto garbage = raw_post(a.endpoint, "application/json", "{this is not json");
    const auto bad = co_await a.poster.send(garbage);
    EXPECT_EQ(bad.status, 400u);
    EXPECT_EQ(bad.content_type(), "application/json");
    const auto error = bad.json();
    EXPECT_EQ(error.at("jsonrpc"), "2.0");
    EXPECT_TRUE(error.at("id").is_null());
    EXPECT_EQ(error.at("error").at("code"), -32700);

    // With a charset the type is still JSON.
    const auto charset = raw_post(a.endpoint, "application/json; charset=utf-8", ping);
    const auto fine = co_await a.poster.send(charset);
    EXPECT_EQ(fine.status, 202u);
    // The refused POSTs put nothing on the stream: the first answer is the ping's.
    const auto pong = co_await a.next();
    EXPECT_EQ(pong.at("id"), 1);
    EXPECT_TRUE(pong.at("result").is_object());
    a.close();
  });
}

// --- the end of a session ------------------------------------------------------------

TEST(HttpLegacy, ClosingTheStreamEndsTheSession) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    co_await a.open();
    co_await a.initialize();
    const auto before = co_await legacy_ping_status(s.port(), a.endpoint);
    EXPECT_EQ(before, 202u);

    a.stream.close();
    const bool gone = co_await becomes_unknown(s.port(), a.endpoint, 5s);
    EXPECT_TRUE(gone) << "POSTs to the session were still accepted 5 s after its stream closed";
    const bool freed = co_await session_count_reaches(s, 0, 5s);
    EXPECT_TRUE(freed) << s.http.session_count() << " sessions left";

    // A new GET is a new session.
    legacy_session b(ex, s.port());
    co_await b.open();
    EXPECT_NE(b.id, a.id);
    co_await b.initialize();
    a.poster.close();
    b.close();
  });
}

TEST(HttpLegacy, CallInFlightIsCancelledWhenTheStreamCloses) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    co_await a.open();
    co_await a.initialize();
    // ~30 s of work: wait for its first progress, then hang up.
    auto params = tool_call("count", json::object{{"steps", 300}, {"step_ms", 100}}, "long");
    const auto call = rpc_request(1, "tools/call", std::move(params));
    const auto status = co_await a.post_status(call);
    EXPECT_EQ(status, 202u);
    const auto first = co_await a.next();
    EXPECT_EQ(first.at("method"), "notifications/progress");
    const auto started = clock_type::now();
    a.close();

    // The session ends at once rather than after the call (or the engine's drain time).
    const bool gone = co_await becomes_unknown(s.port(), a.endpoint, 3s);
    EXPECT_TRUE(gone);
    const bool freed = co_await session_count_reaches(s, 0, 3s);
    EXPECT_TRUE(freed) << s.http.session_count() << " sessions left 3 s after the stream closed";
    EXPECT_LT(clock_type::now() - started, 5s);

    // The server goes on serving.
    legacy_session b(ex, s.port());
    co_await b.open();
    co_await b.initialize();
    const auto echo = echo_call(2, "still serving");
    const auto echo_status = co_await b.post_status(echo);
    EXPECT_EQ(echo_status, 202u);
    const auto reply = co_await b.next();
    EXPECT_EQ(first_text(reply.at("result").as_object()), "still serving");
    b.close();
  });
}

TEST(HttpLegacy, StopEndsTheLegacyStream) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    legacy_session a(co_await asio::this_coro::executor, s.port());
    co_await a.open();
    co_await a.initialize();
    s.http.stop();
    bool ended = false;
    try {
      while (auto e = co_await a.stream.next_event(3s)) {
      }
      ended = true;
    } catch (const boost::system::system_error&) {
      ended = true;  // the connection went instead of a clean end: also an end
    }
    EXPECT_TRUE(ended);
    const std::function<bool()> returned = [&] { return s.state->returned.load(); };
    const bool run_returned = co_await wait_until(returned, 5s);
    EXPECT_TRUE(run_returned);
    a.close();
  });
}

// --- headers and methods ----------------------------------------------------------------

TEST(HttpLegacy, OriginAndHostAreChecked) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto evil_origin_get = sse_get();
    evil_origin_get.header("Origin", "http://evil.example.com");
    const auto refused = co_await http_call(s.port(), evil_origin_get);
    EXPECT_EQ(refused.status, 403u);
    EXPECT_EQ(error_code(refused.json()), errc::invalid_request);

    auto evil_host_get = sse_get();
    evil_host_get.set("Host", "evil.example.com:" + std::to_string(s.port()));
    const auto rebinding = co_await http_call(s.port(), evil_host_get);
    EXPECT_EQ(rebinding.status, 403u);
    EXPECT_EQ(s.http.session_count(), 0u);

    // A localhost origin is welcome.
    legacy_session a(ex, s.port());
    auto local = sse_get();
    local.header("Origin", "http://localhost:5173");
    co_await a.stream.write(local);
    const auto head = co_await a.stream.read_head();
    EXPECT_EQ(head.status, 200u);
    const auto endpoint = co_await a.stream.next_event();
    CO_ASSERT_TRUE(endpoint.has_value());
    EXPECT_EQ(endpoint->event, "endpoint");
    a.endpoint = endpoint->data;

    const auto ping = rpc_request(1, "ping");
    auto evil_post = legacy_post(ping, a.endpoint);
    evil_post.header("Origin", "http://evil.example.com");
    const auto post_refused = co_await http_call(s.port(), evil_post);
    EXPECT_EQ(post_refused.status, 403u);
    auto evil_host_post = legacy_post(ping, a.endpoint);
    evil_host_post.set("Host", "evil.example.com");
    const auto post_rebinding = co_await http_call(s.port(), evil_host_post);
    EXPECT_EQ(post_rebinding.status, 403u);

    auto local_post = legacy_post(ping, a.endpoint);
    local_post.header("Origin", "http://127.0.0.1:5173");
    const auto accepted = co_await http_call(s.port(), local_post);
    EXPECT_EQ(accepted.status, 202u);
    a.close();
  });
}

TEST(HttpLegacy, AllowedOriginsAndHostsApplyToo) {
  http_server_options options;
  options.allowed_origins = {"https://app.example.com"};
  options.allowed_hosts = {"mcp.example.com:8080"};
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    auto get = sse_get();
    get.header("Origin", "https://app.example.com");
    get.set("Host", "mcp.example.com:8080");
    co_await a.stream.write(get);
    const auto head = co_await a.stream.read_head();
    EXPECT_EQ(head.status, 200u);
    auto other = sse_get();
    other.header("Origin", "https://app.example.com.evil.net");
    const auto refused = co_await http_call(s.port(), other);
    EXPECT_EQ(refused.status, 403u);
    a.close();
  });
}

TEST(HttpLegacy, GetThatRefusesEventStreamsIs406) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto wants_json = sse_get();
    wants_json.set("Accept", "application/json");
    const auto refused = co_await http_call(s.port(), wants_json);
    EXPECT_EQ(refused.status, 406u);
    EXPECT_EQ(error_code(refused.json()), errc::invalid_request);
    EXPECT_EQ(s.http.session_count(), 0u);

    // No Accept at all, or */*, admits the stream.
    for (const auto* accept : {"", "*/*"}) {
      legacy_session a(ex, s.port());
      auto get = sse_get();
      if (*accept) get.set("Accept", accept);
      else get.without("Accept");
      co_await a.stream.write(get);
      const auto head = co_await a.stream.read_head();
      EXPECT_EQ(head.status, 200u) << "Accept: " << accept;
      EXPECT_EQ(head.content_type(), "text/event-stream") << "Accept: " << accept;
      a.close();
    }
  });
}

TEST(HttpLegacy, WrongMethodsAre405WithAllow) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto ping = rpc_request(1, "ping");

    for (const auto method : {http::verb::post, http::verb::delete_, http::verb::put}) {
      auto req = legacy_post(ping, "/sse");
      req.method = method;
      const auto reply = co_await c.send(req);  // keep-alive: the 405s have a length
      EXPECT_EQ(reply.status, 405u) << http::to_string(method);
      EXPECT_EQ(reply.header(http::field::allow), "GET") << http::to_string(method);
    }
    for (const auto method : {http::verb::get, http::verb::delete_, http::verb::put}) {
      auto req = legacy_post(ping, "/messages?sessionId=" + std::string(unknown_id));
      req.method = method;
      if (method != http::verb::put) req.body.clear();
      const auto reply = co_await c.send(req);
      EXPECT_EQ(reply.status, 405u) << http::to_string(method);
      EXPECT_EQ(reply.header(http::field::allow), "POST") << http::to_string(method);
    }
    EXPECT_EQ(s.http.session_count(), 0u);
  });
}

// --- when the transport is off ----------------------------------------------------------

TEST(HttpLegacy, StatelessServerHasNoLegacyEndpoints) {
  http_server_options options;
  options.stateless = true;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    const auto get = sse_get();
    const auto stream = co_await http_call(s.port(), get);
    EXPECT_EQ(stream.status, 404u);
    const auto ping = rpc_request(1, "ping");
    const auto post = legacy_post(ping, "/messages?sessionId=" + std::string(unknown_id));
    const auto message = co_await http_call(s.port(), post);
    EXPECT_EQ(message.status, 404u);
    EXPECT_EQ(s.http.session_count(), 0u);
    // /mcp serves as ever.
    const auto echo = echo_call(1, "stateless");
    const auto echo_req = mcp_post(echo);
    const auto answer = co_await http_call(s.port(), echo_req);
    EXPECT_EQ(answer.status, 200u);
  });
}

TEST(HttpLegacy, EmptyLegacyPathTurnsTheTransportOff) {
  http_server_options options;
  options.legacy_sse_path = "";
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    const auto get = sse_get();
    const auto stream = co_await http_call(s.port(), get);
    EXPECT_EQ(stream.status, 404u);
    const auto ping = rpc_request(1, "ping");
    const auto post = legacy_post(ping, "/messages?sessionId=" + std::string(unknown_id));
    const auto message = co_await http_call(s.port(), post);
    EXPECT_EQ(message.status, 404u);
    EXPECT_EQ(s.http.session_count(), 0u);
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto modern = co_await open_session(c);
    EXPECT_FALSE(modern.empty());
  });
}

// --- legacy sessions and /mcp -------------------------------------------------------------

TEST(HttpLegacy, LegacySessionIsNotReachableThroughMcp) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    co_await a.open();
    co_await a.initialize();

    const auto ping = rpc_request(1, "ping");
    const auto post = session_post(ping, a.id);
    const auto posted = co_await http_call(s.port(), post);
    EXPECT_EQ(posted.status, 404u);
    const auto get = mcp_get(a.id);
    const auto got = co_await http_call(s.port(), get);
    EXPECT_EQ(got.status, 404u);
    const auto del = mcp_delete(a.id);
    const auto deleted = co_await http_call(s.port(), del);
    EXPECT_EQ(deleted.status, 404u);

    // The legacy session is untouched: nothing reached its stream, and it answers.
    EXPECT_EQ(s.http.session_count(), 1u);
    const auto own = rpc_request(2, "ping");
    const auto status = co_await a.post_status(own);
    EXPECT_EQ(status, 202u);
    const auto pong = co_await a.next();
    EXPECT_EQ(pong.at("id"), 2);
    a.close();
  });
}

TEST(HttpLegacy, SessionLimitCountsLegacySessions) {
  http_server_options options;
  options.max_sessions = 1;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    legacy_session a(ex, s.port());
    co_await a.open();
    const auto get = sse_get();
    const auto full = co_await http_call(s.port(), get);
    EXPECT_EQ(full.status, 503u);
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto modern = mcp_post(init);
    const auto modern_full = co_await http_call(s.port(), modern);
    EXPECT_EQ(modern_full.status, 503u);
    a.close();
    const bool freed = co_await session_count_reaches(s, 0, 5s);
    EXPECT_TRUE(freed);
    legacy_session b(ex, s.port());
    co_await b.open();
    EXPECT_EQ(b.head.status, 200u);
    b.close();
  });
}

TEST(HttpLegacy, EndpointPathsThatShadowEachOtherAreRefused) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto tools = make_tools();
    http_server_options same_post;
    same_post.legacy_messages_path = same_post.path;
    EXPECT_THROW(http_server(ex, *tools, same_post), mcp::invalid_argument);
    http_server_options same_stream;
    same_stream.legacy_sse_path = same_stream.path;
    EXPECT_THROW(http_server(ex, *tools, same_stream), mcp::invalid_argument);
    co_return;
  });
}

}  // namespace
}  // namespace mcp::test
