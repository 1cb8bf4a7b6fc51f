// The Streamable HTTP server (basic/transports, "Streamable HTTP") on real
// sockets: every status code and header rule as a client sees it, sessions,
// the GET stream, expiry, limits, a thousand sessions at once, and stop().

#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "test_support.hpp"

#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

/// Runs fn(0) ... fn(n - 1), at most `width` at a time; rethrows the first failure.
asio::awaitable<void> for_each_parallel(std::size_t n, std::size_t width,
                                        std::function<asio::awaitable<void>(std::size_t)> fn) {
  auto ex = co_await asio::this_coro::executor;
  std::size_t next = 0;
  std::size_t running = 0;
  std::exception_ptr failure;
  asio::steady_timer all_done(ex);
  all_done.expires_at(asio::steady_timer::time_point::max());
  auto worker = [&]() -> asio::awaitable<void> {
    while (next < n && !failure) co_await fn(next++);
  };
  for (std::size_t w = 0; w < std::min(n, width); ++w) {
    ++running;
    asio::co_spawn(ex, worker(), [&](std::exception_ptr e) {
      if (e && !failure) failure = e;
      if (--running == 0) all_done.cancel();
    });
  }
  while (running > 0) co_await all_done.async_wait(asio::as_tuple(asio::use_awaitable));
  if (failure) std::rethrow_exception(failure);
}

// --- initialize and sessions -------------------------------------------------

TEST(Http, InitializeAnswersJsonWithASessionId) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = mcp_post(init);
    const auto first = co_await http_call(s.port(), req);
    EXPECT_EQ(first.status, 200u);
    EXPECT_EQ(first.content_type(), "application/json");
    const auto id = first.header("Mcp-Session-Id");
    EXPECT_GE(id.size(), 32u);
    EXPECT_TRUE(visible_ascii(id)) << id;
    const auto body = first.json();
    EXPECT_EQ(body.at("id"), 0);
    EXPECT_EQ(body.at("result").at("protocolVersion"), "2025-11-25");
    EXPECT_EQ(body.at("result").at("serverInfo").at("name"), "http-test");

    const auto second = co_await http_call(s.port(), req);
    EXPECT_EQ(second.status, 200u);
    EXPECT_NE(second.header("Mcp-Session-Id"), id);
    EXPECT_EQ(s.http.session_count(), 2u);
  });
}

TEST(Http, SessionHeaderIsRequiredAndChecked) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto ping = rpc_request(1, "ping");

    const auto without = mcp_post(ping);
    const auto missing = co_await c.send(without);
    EXPECT_EQ(missing.status, 400u);
    EXPECT_EQ(missing.content_type(), "application/json");
    EXPECT_EQ(error_code(missing.json()), errc::invalid_request);

    const auto wrong = session_post(ping, "0123456789abcdef0123456789abcdef");
    const auto unknown = co_await c.send(wrong);
    EXPECT_EQ(unknown.status, 404u);

    const auto init = rpc_request(2, "initialize", initialize_params());
    const auto again = mcp_post(init, session);
    const auto reinit = co_await c.send(again);
    EXPECT_EQ(reinit.status, 400u);

    const auto right = session_post(ping, session);
    const auto ok = co_await c.send(right);
    EXPECT_EQ(ok.status, 200u);
    EXPECT_EQ(ok.json().at("id"), 1);
    EXPECT_TRUE(ok.json().at("result").is_object());
    EXPECT_EQ(s.http.session_count(), 1u);
  });
}

// --- what a POST must look like ----------------------------------------------

TEST(Http, PostNeedsBothAcceptTypesAndJsonContent) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto ping = rpc_request(1, "ping");

    auto json_only = session_post(ping, session);
    json_only.set("Accept", "application/json");
    const auto not_acceptable = co_await c.send(json_only);
    EXPECT_EQ(not_acceptable.status, 406u);

    auto sse_only = session_post(ping, session);
    sse_only.set("Accept", "text/event-stream");
    const auto also_not_acceptable = co_await c.send(sse_only);
    EXPECT_EQ(also_not_acceptable.status, 406u);

    auto text = session_post(ping, session);
    text.set("Content-Type", "text/plain");
    const auto unsupported = co_await c.send(text);
    EXPECT_EQ(unsupported.status, 415u);

    auto garbage = session_post(ping, session);
    garbage.body = "{this is not json";
    const auto bad = co_await c.send(garbage);
    EXPECT_EQ(bad.status, 400u);
    EXPECT_EQ(bad.content_type(), "application/json");
    const auto error = bad.json();
    EXPECT_EQ(error.at("jsonrpc"), "2.0");
    EXPECT_TRUE(error.at("id").is_null());
    EXPECT_EQ(error.at("error").at("code"), -32700);

    // The connection is still good after all of that.
    const auto fine = session_post(ping, session);
    const auto ok = co_await c.send(fine);
    EXPECT_EQ(ok.status, 200u);
  });
}

TEST(Http, BodyOverTheLimitIs413) {
  http_server_options options;
  options.max_body_size = 1024;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    for (std::size_t size : {2'000u, 200'000u}) {
      const auto call = echo_call(1, std::string(size, 'x'));
      const auto req = session_post(call, session);
      const auto reply = co_await http_call(s.port(), req);
      EXPECT_EQ(reply.status, 413u) << size << " bytes";
    }
    const auto small = echo_call(2, "small");
    const auto req = session_post(small, session);
    const auto ok = co_await c.send(req);
    EXPECT_EQ(ok.status, 200u);
  });
}

TEST(Http, HeadersOverTheLimitAre431) {
  http_server_options options;
  options.max_header_size = 1024;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto ping = rpc_request(1, "ping");
    auto bloated = session_post(ping, session);
    bloated.header("X-Padding", std::string(2000, 'p'));
    const auto reply = co_await http_call(s.port(), bloated);
    EXPECT_EQ(reply.status, 431u);
    const auto fine = session_post(ping, session);
    const auto ok = co_await c.send(fine);
    EXPECT_EQ(ok.status, 200u);
  });
}

// Requests written byte for byte, as clients other than ours send them.
TEST(Http, HeaderNamesInAnyCaseChunkedBodiesAndHttp10) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), s.port());
    asio::ip::tcp::socket socket(ex);
    co_await socket.async_connect(endpoint, asio::use_awaitable);
    beast::flat_buffer buffer;
    auto exchange = [&](std::string request) -> asio::awaitable<http::response<http::string_body>> {
      co_await asio::async_write(socket, asio::buffer(request), asio::use_awaitable);
      http::response<http::string_body> reply;
      co_await http::async_read(socket, buffer, reply, asio::use_awaitable);
      co_return reply;
    };
    // initialize with a chunked body, in two chunks, and header names in odd cases.
    const auto init = json::serialize(rpc_request(0, "initialize", initialize_params()));
    const auto chunk = [](std::string_view data) {
      char size[20];
      std::snprintf(size, sizeof size, "%zx", data.size());
      return std::string(size) + "\r\n" + std::string(data) + "\r\n";
    };
    const std::string_view body(init);
    auto hello = co_await exchange("POST /mcp HTTP/1.1\r\nhOsT: 127.0.0.1\r\nACCEPT: application/json, text/event-stream\r\n"
                                   "content-TYPE: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
                                   chunk(body.substr(0, body.size() / 2)) + chunk(body.substr(body.size() / 2)) +
                                   "0\r\n\r\n");
    EXPECT_EQ(hello.result_int(), 200u);
    const std::string session(hello["Mcp-Session-Id"]);
    CO_ASSERT_TRUE(!session.empty());
    // The session header in lower case, and a repeated header: the first counts.
    const auto call = json::serialize(echo_call(1, "any case"));
    auto echoed = co_await exchange("POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\naccept: application/json, text/event-stream\r\n"
                                    "content-type: application/json\r\nmcp-session-id: " + session +
                                    "\r\nMCP-SESSION-ID: not-this-one\r\nContent-Length: " + std::to_string(call.size()) +
                                    "\r\n\r\n" + call);
    EXPECT_EQ(echoed.result_int(), 200u);
    EXPECT_EQ(first_text(json::parse(echoed.body()).at("result").as_object()), "any case");
    // An HTTP/1.0 client is answered in HTTP/1.0, and its connection closed.
    asio::ip::tcp::socket old(ex);
    co_await old.async_connect(endpoint, asio::use_awaitable);
    const auto again = json::serialize(echo_call(2, "old"));
    const std::string request = "POST /mcp HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: application/json, text/event-stream\r\n"
                                "Content-Type: application/json\r\nMcp-Session-Id: " + session +
                                "\r\nContent-Length: " + std::to_string(again.size()) + "\r\n\r\n" + again;
    co_await asio::async_write(old, asio::buffer(request), asio::use_awaitable);
    std::string raw;
    auto [ec, n] = co_await asio::async_read(old, asio::dynamic_buffer(raw), asio::as_tuple(asio::use_awaitable));
    EXPECT_EQ(ec, asio::error::eof) << "the connection stayed open";
    EXPECT_TRUE(raw.starts_with("HTTP/1.0 200 OK\r\n")) << raw;
    EXPECT_NE(raw.find("\"old\""), std::string::npos) << raw;
  });
}

TEST(Http, NotificationOnlyPostIs202WithNoBody) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = mcp_post(init);
    const auto reply = co_await c.send(req);
    const auto session = reply.header("Mcp-Session-Id");
    const auto initialized = rpc_notification("notifications/initialized");
    const auto note = session_post(initialized, session);
    const auto ack = co_await c.send(note);
    EXPECT_EQ(ack.status, 202u);
    EXPECT_TRUE(ack.body.empty());
    EXPECT_FALSE(ack.has(http::field::content_type));
  });
}

// --- answers: JSON or an event stream ------------------------------------------

TEST(Http, QuickCallAnswersJson) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto call = echo_call(5, "hello");
    const auto req = session_post(call, session);
    const auto reply = co_await c.send(req);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.content_type(), "application/json");
    const auto body = reply.json();
    EXPECT_EQ(body.at("id"), 5);
    EXPECT_EQ(first_text(body.at("result").as_object()), "hello");
    // Only initialize's answer carries the session id.
    EXPECT_FALSE(reply.has("Mcp-Session-Id"));
  });
}

TEST(Http, ProgressStreamsEventsThenTheResult) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    auto params = tool_call("count", json::object{{"steps", 4}}, "tok-1");
    const auto call = rpc_request(7, "tools/call", std::move(params));
    const auto req = session_post(call, session);
    const auto reply = co_await read_sse(s.port(), req);
    EXPECT_EQ(reply.head.status, 200u);
    EXPECT_EQ(reply.head.content_type(), "text/event-stream");
    EXPECT_TRUE(reply.ended);
    CO_ASSERT_TRUE(reply.messages.size() == 5u);
    for (int i = 0; i < 4; ++i) {
      const auto& note = reply.messages[i];
      EXPECT_EQ(note.at("method"), "notifications/progress");
      EXPECT_EQ(note.at("params").at("progressToken"), "tok-1");
      EXPECT_EQ(note.at("params").at("progress").to_number<double>(), i + 1.0);
      EXPECT_EQ(note.at("params").at("total").to_number<double>(), 4.0);
      EXPECT_FALSE(note.as_object().contains("id"));
    }
    const auto& result = reply.messages.back();
    EXPECT_EQ(result.at("id"), 7);
    EXPECT_EQ(first_text(result.at("result").as_object()), "counted to 4");

    // Read incrementally on a keep-alive connection: events arrive as they
    // happen, and the connection serves the next request after the stream.
    auto more = tool_call("count", json::object{{"steps", 3}}, 42);
    const auto call2 = rpc_request("second", "tools/call", std::move(more));
    const auto req2 = session_post(call2, session);
    co_await c.write(req2);
    const auto head = co_await c.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    EXPECT_EQ(head.header(http::field::cache_control), "no-cache");
    std::vector<json::value> seen;
    while (auto m = co_await c.next_message()) seen.push_back(std::move(*m));
    CO_ASSERT_TRUE(seen.size() == 4u);
    EXPECT_EQ(seen[0].at("params").at("progressToken"), 42);
    EXPECT_EQ(seen[3].at("id"), "second");
    const auto echo = echo_call(8, "after the stream");
    const auto req3 = session_post(echo, session);
    const auto after = co_await c.send(req3);
    EXPECT_EQ(after.status, 200u);
    EXPECT_EQ(first_text(after.json().at("result").as_object()), "after the stream");
  });
}

TEST(Http, LogMessagesGoOnTheCallsStream) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    auto params = tool_call("log", json::object{});
    const auto call = rpc_request(3, "tools/call", std::move(params));
    const auto req = session_post(call, session);
    const auto reply = co_await read_sse(s.port(), req);
    EXPECT_EQ(reply.head.status, 200u);
    EXPECT_EQ(reply.head.content_type(), "text/event-stream");
    CO_ASSERT_TRUE(reply.messages.size() == 2u);
    EXPECT_EQ(reply.messages[0].at("method"), "notifications/message");
    EXPECT_EQ(reply.messages[0].at("params").at("level"), "info");
    EXPECT_EQ(reply.messages[0].at("params").at("data"), "a line from the tool");
    EXPECT_EQ(reply.messages[1].at("id"), 3);
    EXPECT_EQ(first_text(reply.messages[1].at("result").as_object()), "logged");
  });
}

TEST(Http, JsonOnlyAnswersJsonAndSendsProgressToTheGetStream) {
  http_server_options options;
  options.json_only = true;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);

    // Without a GET stream the progress has nowhere to go; the answer is still JSON.
    auto quiet = tool_call("count", json::object{{"steps", 2}}, "lost");
    const auto call1 = rpc_request(1, "tools/call", std::move(quiet));
    const auto req1 = session_post(call1, session);
    const auto first = co_await c.send(req1);
    EXPECT_EQ(first.status, 200u);
    EXPECT_EQ(first.content_type(), "application/json");
    EXPECT_EQ(first_text(first.json().at("result").as_object()), "counted to 2");

    http_connection listener(ex, s.port());
    const auto get = mcp_get(session);
    co_await listener.write(get);
    const auto head = co_await listener.read_head();
    EXPECT_EQ(head.status, 200u);
    EXPECT_EQ(head.content_type(), "text/event-stream");

    auto params = tool_call("count", json::object{{"steps", 3}}, "tok");
    const auto call = rpc_request(2, "tools/call", std::move(params));
    const auto req = session_post(call, session);
    const auto reply = co_await c.send(req);
    EXPECT_EQ(reply.status, 200u);
    EXPECT_EQ(reply.content_type(), "application/json");
    EXPECT_EQ(reply.json().at("id"), 2);
    EXPECT_EQ(first_text(reply.json().at("result").as_object()), "counted to 3");
    for (int i = 1; i <= 3; ++i) {
      auto note = co_await listener.next_message();
      CO_ASSERT_TRUE(note.has_value());
      EXPECT_EQ(note->at("method"), "notifications/progress");
      EXPECT_EQ(note->at("params").at("progressToken"), "tok");
      EXPECT_EQ(note->at("params").at("progress").to_number<double>(), double(i));
    }
    listener.close();
  });
}

// --- the GET stream ----------------------------------------------------------------

TEST(Http, GetStreamRules) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);

    const auto no_session = mcp_get();
    const auto missing = co_await http_call(s.port(), no_session);
    EXPECT_EQ(missing.status, 400u);

    const auto unknown_session = mcp_get("0123456789abcdef0123456789abcdef");
    const auto unknown = co_await http_call(s.port(), unknown_session);
    EXPECT_EQ(unknown.status, 404u);

    auto wants_json = mcp_get(session);
    wants_json.set("Accept", "application/json");
    const auto not_acceptable = co_await http_call(s.port(), wants_json);
    EXPECT_EQ(not_acceptable.status, 406u);

    http_connection listener(ex, s.port());
    const auto get = mcp_get(session);
    co_await listener.write(get);
    const auto head = co_await listener.read_head();
    EXPECT_EQ(head.status, 200u);
    EXPECT_EQ(head.content_type(), "text/event-stream");
    EXPECT_FALSE(head.has("Mcp-Session-Id"));

    const auto second = co_await http_call(s.port(), get);
    EXPECT_EQ(second.status, 409u);

    // A server-initiated notification arrives on the open stream.
    mcp::tool_info late;
    late.name = "late";
    s.tools->add_tool(late, [](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
      co_return mcp::call_tool_result::text("late");
    });
    const auto note = co_await listener.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/tools/list_changed");
    EXPECT_FALSE(note->as_object().contains("id"));

    // Ending the session ends the stream.
    const auto del = mcp_delete(session);
    const auto deleted = co_await c.send(del);
    EXPECT_EQ(deleted.status, 200u);
    const auto end = co_await listener.next_message();
    EXPECT_FALSE(end.has_value());
  });
}

TEST(Http, GetStreamCanBeReopenedAfterTheClientDropsIt) {
  http_server_options options;
  options.keep_alive_interval = std::chrono::seconds(60);  // the drop must be seen without a write
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    const auto get = mcp_get(session);
    {
      http_connection listener(ex, s.port());
      co_await listener.write(get);
      const auto head = co_await listener.read_head();
      EXPECT_EQ(head.status, 200u);
      listener.close();
    }
    // The server notices the closed connection and frees the session's stream slot.
    unsigned status = 0;
    for (int i = 0; i < 100 && status != 200; ++i) {
      http_connection again(ex, s.port());
      co_await again.write(get);
      const auto head = co_await again.read_head();
      status = head.status;
      if (status != 200) {
        co_await again.rest_of_body();
        co_await sleep_for(20ms);
      }
      again.close();
    }
    EXPECT_EQ(status, 200u);
  });
}

// --- DELETE ------------------------------------------------------------------------

TEST(Http, DeleteEndsTheSession) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto del = mcp_delete(session);
    const auto deleted = co_await c.send(del);
    EXPECT_EQ(deleted.status, 200u);

    const auto after = co_await ping_status(s.port(), session);
    EXPECT_EQ(after, 404u);
    const auto get = mcp_get(session);
    const auto stream = co_await c.send(get);
    EXPECT_EQ(stream.status, 404u);
    const auto twice = co_await c.send(del);
    EXPECT_EQ(twice.status, 404u);

    const auto unknown = mcp_delete("0123456789abcdef0123456789abcdef");
    const auto not_found = co_await c.send(unknown);
    EXPECT_EQ(not_found.status, 404u);
    const auto none = mcp_delete();
    const auto missing = co_await c.send(none);
    EXPECT_EQ(missing.status, 400u);

    const std::function<bool()> gone = [&] { return s.http.session_count() == 0; };
    const bool ended = co_await wait_until(gone, 5s);
    EXPECT_TRUE(ended);
  });
}

TEST(Http, DeleteCancelsTheSessionsCallsInFlight) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    auto params = tool_call("count", json::object{{"steps", 300}, {"step_ms", 100}}, "slow");
    const auto call = rpc_request(1, "tools/call", std::move(params));
    const auto req = session_post(call, session);
    co_await c.write(req);
    const auto head = co_await c.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    const auto first = co_await c.next_message();
    CO_ASSERT_TRUE(first.has_value());

    const auto del = mcp_delete(session);
    const auto deleted = co_await http_call(s.port(), del);
    EXPECT_EQ(deleted.status, 200u);
    // The call's stream ends without a result, and the session is gone at
    // once rather than after the engine's drain time (10 s).
    std::optional<json::value> result;
    while (auto m = co_await c.next_message(3s))
      if (m->as_object().contains("id")) result = std::move(m);
    EXPECT_FALSE(result.has_value());
    const std::function<bool()> gone = [&] { return s.http.session_count() == 0; };
    const bool ended = co_await wait_until(gone, 3s);
    EXPECT_TRUE(ended);
  });
}

// --- headers: version, Origin, Host --------------------------------------------------

TEST(Http, ProtocolVersionHeaderIsChecked) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto ping = rpc_request(1, "ping");

    auto unsupported = session_post(ping, session);
    unsupported.set(std::string(version_header), "1999-01-01");
    const auto refused = co_await c.send(unsupported);
    EXPECT_EQ(refused.status, 400u);
    EXPECT_EQ(error_code(refused.json()), errc::invalid_request);

    auto garbage = session_post(ping, session);
    garbage.set(std::string(version_header), "latest");
    const auto refused_too = co_await c.send(garbage);
    EXPECT_EQ(refused_too.status, 400u);

    for (const auto* version : {"2025-11-25", "2025-06-18", "2025-03-26"}) {
      auto supported = session_post(ping, session);
      supported.set(std::string(version_header), version);
      const auto ok = co_await c.send(supported);
      EXPECT_EQ(ok.status, 200u) << version;
    }
    auto absent = session_post(ping, session);
    absent.without(version_header);
    const auto ok = co_await c.send(absent);
    EXPECT_EQ(ok.status, 200u);

    // On initialize too.
    const auto init = rpc_request(0, "initialize", initialize_params());
    auto bad_init = mcp_post(init);
    bad_init.header(std::string(version_header), "1999-01-01");
    const auto no_session = co_await c.send(bad_init);
    EXPECT_EQ(no_session.status, 400u);
    EXPECT_EQ(s.http.session_count(), 1u);
  });
}

TEST(Http, OriginAndHostAreChecked) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto ping = rpc_request(1, "ping");
    const auto port = std::to_string(s.port());

    auto evil_origin = session_post(ping, session);
    evil_origin.header("Origin", "http://evil.example.com");
    const auto forbidden = co_await c.send(evil_origin);
    EXPECT_EQ(forbidden.status, 403u);
    EXPECT_EQ(error_code(forbidden.json()), errc::invalid_request);
    EXPECT_TRUE(forbidden.json().at("id").is_null());

    auto evil_init = mcp_post(rpc_request(0, "initialize", initialize_params()));
    evil_init.header("Origin", "http://evil.example.com");
    const auto no_session = co_await c.send(evil_init);
    EXPECT_EQ(no_session.status, 403u);
    EXPECT_EQ(s.http.session_count(), 1u);

    auto local_origin = session_post(ping, session);
    local_origin.header("Origin", "http://localhost:1234");
    const auto local = co_await c.send(local_origin);
    EXPECT_EQ(local.status, 200u);

    auto evil_host = session_post(ping, session);
    evil_host.set("Host", "evil.example.com");
    const auto rebinding = co_await c.send(evil_host);
    EXPECT_EQ(rebinding.status, 403u);

    auto evil_host_port = session_post(ping, session);
    evil_host_port.set("Host", "evil.example.com:" + port);
    const auto rebinding_too = co_await c.send(evil_host_port);
    EXPECT_EQ(rebinding_too.status, 403u);

    for (const auto& host : {"localhost:" + port, "127.0.0.1:" + port, std::string("localhost")}) {
      auto named = session_post(ping, session);
      named.set("Host", host);
      const auto ok = co_await c.send(named);
      EXPECT_EQ(ok.status, 200u) << host;
    }
  });
}

TEST(Http, AllowedOriginsAndHostsCanBeAdded) {
  http_server_options options;
  options.allowed_origins = {"https://app.example.com"};
  options.allowed_hosts = {"mcp.example.com:8080"};
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto ping = rpc_request(1, "ping");

    auto origin = session_post(ping, session);
    origin.header("Origin", "https://app.example.com");
    const auto allowed = co_await c.send(origin);
    EXPECT_EQ(allowed.status, 200u);
    auto other_origin = session_post(ping, session);
    other_origin.header("Origin", "https://app.example.com.evil.net");
    const auto refused = co_await c.send(other_origin);
    EXPECT_EQ(refused.status, 403u);
    auto host = session_post(ping, session);
    host.set("Host", "mcp.example.com:8080");
    const auto named = co_await c.send(host);
    EXPECT_EQ(named.status, 200u);
  });
}

TEST(Http, UnknownPathIs404AndOtherMethodsAre405) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto ping = rpc_request(1, "ping");
    const auto elsewhere = mcp_post(ping, {}, "/other");
    const auto not_found = co_await c.send(elsewhere);
    EXPECT_EQ(not_found.status, 404u);

    auto put = mcp_post(ping);
    put.method = http::verb::put;
    const auto not_allowed = co_await c.send(put);
    EXPECT_EQ(not_allowed.status, 405u);
    const auto allow = not_allowed.header(http::field::allow);
    EXPECT_NE(allow.find("GET"), std::string::npos) << allow;
    EXPECT_NE(allow.find("POST"), std::string::npos) << allow;
    EXPECT_NE(allow.find("DELETE"), std::string::npos) << allow;

    // A query string does not change the endpoint.
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto with_query = mcp_post(init, {}, "/mcp?x=1");
    const auto ok = co_await c.send(with_query);
    EXPECT_EQ(ok.status, 200u);
  });
}

// --- limits and expiry ---------------------------------------------------------------

TEST(Http, ConnectionsBeyondTheLimitAreClosed) {
  http_server_options options;
  options.max_connections = 2;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection one(ex, s.port()), two(ex, s.port()), three(ex, s.port());
    co_await open_session(one);
    co_await open_session(two);
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = mcp_post(init);
    bool refused = false;
    try {
      co_await three.send(req);
    } catch (const std::exception&) {
      refused = true;  // closed without an answer
    }
    EXPECT_TRUE(refused);
    const auto still_served = co_await one.send(req);  // the first two go on
    EXPECT_EQ(still_served.status, 200u);
  });
}

TEST(Http, ConnectionsWithoutARequestAreClosedAtTheRequestTimeout) {
  http_server_options options;
  options.request_timeout = 300ms;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const asio::ip::tcp::endpoint endpoint(asio::ip::make_address("127.0.0.1"), s.port());
    // One says nothing, one sends half a request head and stops.
    asio::ip::tcp::socket silent(ex), trickling(ex);
    co_await silent.async_connect(endpoint, asio::use_awaitable);
    co_await trickling.async_connect(endpoint, asio::use_awaitable);
    const std::string half = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    co_await asio::async_write(trickling, asio::buffer(half), asio::use_awaitable);
    const auto started = clock_type::now();
    const bool silent_closed = co_await closed_by_server(silent, 5s);
    const bool trickling_closed = co_await closed_by_server(trickling, 5s);
    EXPECT_TRUE(silent_closed) << "a silent connection stayed open";
    EXPECT_TRUE(trickling_closed) << "a half-sent request kept its connection";
    EXPECT_GE(clock_type::now() - started, 250ms) << "closed before the deadline";
    // A keep-alive connection that was served, then goes quiet, ends the same way.
    http_connection served(ex, s.port());
    co_await open_session(served);
    const bool idle_closed = co_await closed_by_server(served.stream().socket(), 5s);
    EXPECT_TRUE(idle_closed) << "an idle keep-alive connection stayed open";
  });
}

TEST(Http, StatelessServesEveryPostOnItsOwn) {
  http_server_options options;
  options.stateless = true;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto init_req = mcp_post(init);
    const auto hello = co_await c.send(init_req);
    EXPECT_EQ(hello.status, 200u);
    EXPECT_FALSE(hello.has("Mcp-Session-Id"));
    // No handshake needed and no session header: each request stands alone.
    const auto echo = echo_call(1, "alone");
    const auto echo_req = mcp_post(echo);
    const auto answer = co_await c.send(echo_req);
    EXPECT_EQ(answer.status, 200u);
    EXPECT_EQ(first_text(answer.json().at("result").as_object()), "alone");
    // A handler sees the headers of its own POST, the name in any case.
    for (std::string tenant : {"blue", "green"}) {
      const auto ask = rpc_request(2, "tools/call", {{"name", "header"}, {"arguments", {{"name", "X-Tenant"}}}});
      auto ask_req = mcp_post(ask);
      ask_req.set("x-tenant", tenant);
      const auto told = co_await c.send(ask_req);
      EXPECT_EQ(first_text(told.json().at("result").as_object()), tenant);
    }
    const std::function<bool()> none_left = [&] { return s.http.session_count() == 0; };
    const bool cleaned = co_await wait_until(none_left, 5s);
    EXPECT_TRUE(cleaned);
    const auto get = mcp_get();
    const auto no_stream = co_await c.send(get);
    EXPECT_EQ(no_stream.status, 405u);
    const auto del = mcp_delete();
    const auto no_delete = co_await c.send(del);
    EXPECT_EQ(no_delete.status, 405u);
  });
}

TEST(Http, SessionLimitGives503) {
  http_server_options options;
  options.max_sessions = 2;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto first = co_await open_session(c);
    co_await open_session(c);
    const auto init = rpc_request(0, "initialize", initialize_params());
    const auto req = mcp_post(init);
    const auto full = co_await c.send(req);
    EXPECT_EQ(full.status, 503u);
    EXPECT_FALSE(full.has("Mcp-Session-Id"));
    EXPECT_EQ(s.http.session_count(), 2u);

    // Room again once a session is gone.
    const auto del = mcp_delete(first);
    const auto deleted = co_await c.send(del);
    EXPECT_EQ(deleted.status, 200u);
    const std::function<bool()> one_left = [&] { return s.http.session_count() < 2; };
    const bool freed = co_await wait_until(one_left, 5s);
    EXPECT_TRUE(freed);
    const auto room = co_await c.send(req);
    EXPECT_EQ(room.status, 200u);
  });
}

TEST(Http, IdleSessionsExpire) {
  http_server_options options;
  options.idle_timeout = std::chrono::seconds(1);
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto idle = co_await open_session(c);
    const auto busy = co_await open_session(c);
    // Activity keeps `busy` alive: a ping every 300 ms.
    for (int i = 0; i < 8; ++i) {
      co_await sleep_for(300ms);
      const auto kept = co_await ping_status(s.port(), busy);
      EXPECT_EQ(kept, 200u);
    }
    const auto expired = co_await ping_status(s.port(), idle);
    EXPECT_EQ(expired, 404u);
    const auto alive = co_await ping_status(s.port(), busy);
    EXPECT_EQ(alive, 200u);
    const std::function<bool()> one_left = [&] { return s.http.session_count() == 1; };
    const bool reaped = co_await wait_until(one_left, 5s);
    EXPECT_TRUE(reaped);
  });
}

TEST(Http, ASessionWhoseClientListensDoesNotExpire) {
  http_server_options options;
  options.idle_timeout = std::chrono::seconds(1);
  options.keep_alive_interval = std::chrono::seconds(1);
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto listening = co_await open_session(c);
    const auto quiet = co_await open_session(c);
    http_connection listener(ex, s.port());
    co_await listener.write(mcp_get(listening));
    const auto stream_head = co_await listener.read_head();
    EXPECT_EQ(stream_head.status, 200u);
    // Three timeouts without a request from either.
    co_await sleep_for(3s);
    const auto expired = co_await ping_status(s.port(), quiet);
    EXPECT_EQ(expired, 404u);
    const auto kept = co_await ping_status(s.port(), listening);
    EXPECT_EQ(kept, 200u);
  });
}

// --- a thousand sessions -------------------------------------------------------------

constexpr std::size_t thousand_sessions = 1000;
constexpr std::size_t parallel_width = 50;

TEST(Http, AThousandConcurrentSessions) {
  http_server_options options;
  run_http_test(
      options,
      [](test_server& s) -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        const auto start = clock_type::now();
        std::vector<std::unique_ptr<http_connection>> connections;
        for (std::size_t i = 0; i < thousand_sessions; ++i) connections.push_back(std::make_unique<http_connection>(ex, s.port()));
        std::vector<std::string> ids(thousand_sessions);

        const std::function<asio::awaitable<void>(std::size_t)> open = [&](std::size_t i) -> asio::awaitable<void> { ids[i] = co_await open_session(*connections[i]); };
        co_await for_each_parallel(thousand_sessions, parallel_width, open);
        const auto opened = clock_type::now();
        EXPECT_EQ(s.http.session_count(), thousand_sessions);
        EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), thousand_sessions);

        std::size_t answered = 0;
        const std::function<asio::awaitable<void>(std::size_t)> call = [&](std::size_t i) -> asio::awaitable<void> {
          const auto text = "hello " + std::to_string(i);
          const auto message = echo_call(i, text);
          const auto req = session_post(message, ids[i]);
          const auto reply = co_await connections[i]->send(req);
          if (reply.status == 200 && first_text(reply.json().at("result").as_object()) == text) ++answered;
        };
        co_await for_each_parallel(thousand_sessions, parallel_width, call);
        const auto called = clock_type::now();
        EXPECT_EQ(answered, thousand_sessions);
        EXPECT_EQ(s.http.session_count(), thousand_sessions);

        std::size_t deleted = 0;
        const std::function<asio::awaitable<void>(std::size_t)> end = [&](std::size_t i) -> asio::awaitable<void> {
          const auto del = mcp_delete(ids[i]);
          const auto reply = co_await connections[i]->send(del);
          if (reply.status == 200) ++deleted;
          connections[i]->close();
        };
        co_await for_each_parallel(thousand_sessions, parallel_width, end);
        EXPECT_EQ(deleted, thousand_sessions);
        const std::function<bool()> none = [&] { return s.http.session_count() == 0; };
        const bool all_gone = co_await wait_until(none, 10s);
        EXPECT_TRUE(all_gone) << s.http.session_count() << " left";
        const auto done = clock_type::now();
        auto ms = [](auto d) { return std::chrono::duration_cast<std::chrono::milliseconds>(d).count(); };
        std::printf("[ timing ] %zu sessions: initialize %lld ms, tools/call %lld ms, delete %lld ms\n", thousand_sessions,
                    static_cast<long long>(ms(opened - start)), static_cast<long long>(ms(called - opened)),
                    static_cast<long long>(ms(done - called)));
      },
      120s);
}

// --- stop ----------------------------------------------------------------------------

TEST(Http, StopEndsStreamsAndRunReturns) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);

    http_connection listener(ex, s.port());
    const auto get = mcp_get(session);
    co_await listener.write(get);
    const auto stream_head = co_await listener.read_head();
    EXPECT_EQ(stream_head.status, 200u);

    // A call of ~30 s on an SSE stream: wait for its first progress event.
    auto params = tool_call("count", json::object{{"steps", 300}, {"step_ms", 100}}, "slow");
    const auto call = rpc_request(1, "tools/call", std::move(params));
    const auto req = session_post(call, session);
    co_await c.write(req);
    const auto head = co_await c.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    const auto first = co_await c.next_message();
    CO_ASSERT_TRUE(first.has_value());
    EXPECT_EQ(first->at("method"), "notifications/progress");

    s.http.stop();
    // Both streams end (cleanly or with the connection), well before the call would.
    auto drain = [](http_connection& conn) -> asio::awaitable<bool> {
      try {
        while (auto m = co_await conn.next_message(3s)) {
          if (m->as_object().contains("id")) co_return false;  // the call must not complete
        }
      } catch (const boost::system::system_error&) {
      }
      co_return true;
    };
    const bool call_stream_ended = co_await drain(c);
    EXPECT_TRUE(call_stream_ended);
    const bool get_stream_ended = co_await drain(listener);
    EXPECT_TRUE(get_stream_ended);
    const std::function<bool()> returned = [&] { return s.state->returned.load(); };
    const bool run_returned = co_await wait_until(returned, 3s);
    EXPECT_TRUE(run_returned);

    // Nothing listens any more.
    bool refused = false;
    try {
      const auto ping = rpc_request(2, "ping");
      const auto late = session_post(ping, session);
      co_await http_call(s.port(), late, 2s);
    } catch (const boost::system::system_error&) {
      refused = true;
    }
    EXPECT_TRUE(refused);
  });
}

}  // namespace
}  // namespace mcp::test

namespace mcp::test {
namespace {

TEST(Http, CancelledCallEndsItsStreamWithoutAResult) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    const auto session = co_await open_session(c);
    json::object args{{"steps", 200}, {"step_ms", 25}};
    auto params = tool_call("count", std::move(args), "tok");
    const auto call = rpc_request(9, "tools/call", std::move(params));
    const auto req = session_post(call, session);
    http_connection streaming(ex, s.port());
    co_await streaming.write(req);
    const auto head = co_await streaming.read_head();
    EXPECT_EQ(head.content_type(), "text/event-stream");
    auto first = co_await streaming.next_message();
    CO_ASSERT_TRUE(first.has_value());
    json::object cancel_params{{"requestId", 9}};
    const auto cancel = rpc_notification("notifications/cancelled", std::move(cancel_params));
    const auto cancel_req = session_post(cancel, session);
    const auto accepted = co_await c.send(cancel_req);
    EXPECT_EQ(accepted.status, 202u);
    // The stream ends (well before the 5 s the call would take) with no result.
    std::vector<json::value> rest;
    while (auto m = co_await streaming.next_message()) rest.push_back(std::move(*m));
    for (const auto& m : rest) EXPECT_FALSE(m.as_object().contains("id")) << json::serialize(m);
  });
}

}  // namespace
}  // namespace mcp::test

namespace mcp::test {
namespace {

TEST(Http, RequestWithAMalformedIdDoesNotHangItsPost) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    http_connection c(co_await asio::this_coro::executor, s.port());
    const auto session = co_await open_session(c);
    const auto bad = json::parse(R"({"jsonrpc":"2.0","id":true,"method":"ping"})");
    const auto req = session_post(bad, session);
    const auto reply = co_await c.send(req);
    // Nothing routable to wait for: input the server cannot accept, 400 with
    // the error and no id (transports, "Sending Messages to the Server").
    EXPECT_EQ(reply.status, 400u);
    EXPECT_EQ(error_code(reply.json()), errc::invalid_request);
    EXPECT_TRUE(reply.json().at("id").is_null());
    const auto echo = echo_call(2, "still fine");
    const auto next = session_post(echo, session);
    const auto fine = co_await c.send(next);
    EXPECT_EQ(fine.status, 200u);
  });
}

// --- the 2026-07-28 era --------------------------------------------------------------

// The spec asks for 400 (404 for an unknown method) with the JSON-RPC error,
// and a client decides on the status (falling back to an older revision, for
// one): so a refusal keeps its status when the client prefers a stream,
// whether the server refuses at once or the handler finds it out.
TEST(Http, A2026RefusalKeepsItsStatusWhenTheClientPrefersAStream) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    mcp::tool_info ask;
    ask.name = "ask";
    ask.description = "Asks the user for a name";
    s.tools->add_tool(ask, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
      const auto schema = json::parse(R"({"type":"object","properties":{"name":{"type":"string"}}})").as_object();
      co_await ctx.elicit("Your name?", schema);  // (the client declares no elicitation)
      co_return mcp::call_tool_result::text("asked");
    });
    const std::vector<std::string> accepts{std::string(mcp_accept), "text/event-stream, application/json"};
    for (const auto& accept : accepts) {
      // (Each request named before its co_await line: docs/compilers.md.)
      auto unsupported_post = modern_post(1, "ping", json::object(), json::object(), "2099-01-01");
      unsupported_post.set("Accept", accept);
      const auto unsupported = co_await http_call(s.port(), unsupported_post);
      EXPECT_EQ(unsupported.status, 400u) << accept;
      EXPECT_EQ(unsupported.content_type(), "application/json") << accept;
      EXPECT_EQ(error_code(unsupported.json()), errc::unsupported_protocol_version) << accept;

      auto unknown_post = modern_post(1, "nope/nope", json::object());
      unknown_post.set("Accept", accept);
      const auto unknown = co_await http_call(s.port(), unknown_post);
      EXPECT_EQ(unknown.status, 404u) << accept;
      EXPECT_EQ(error_code(unknown.json()), errc::method_not_found) << accept;

      auto ask_post = modern_post(1, "tools/call", tool_call("ask", json::object()));
      ask_post.set("Accept", accept);
      const auto uncapable = co_await http_call(s.port(), ask_post);
      EXPECT_EQ(uncapable.status, 400u) << accept;
      EXPECT_EQ(error_code(uncapable.json()), errc::missing_client_capability) << accept;

      // What is served is answered as the client prefers.
      const json::object hi{{"text", "hi"}};
      auto echo_post = modern_post(1, "tools/call", tool_call("echo", hi));
      echo_post.set("Accept", accept);
      const auto served = co_await http_call(s.port(), echo_post);
      EXPECT_EQ(served.status, 200u) << accept;
      EXPECT_EQ(served.content_type(), accept.starts_with("text/event-stream") ? "text/event-stream" : "application/json");
    }
  });
}

}  // namespace
}  // namespace mcp::test
