// 2026-07-28 subscriptions/listen streams over HTTP (spec:
// basic/patterns/subscriptions), once the server holds them by themselves:
// many at once, each hearing what its filter asks for with its own
// subscriptionId; a quiet one kept alive; the server's shutdown ending each
// with its closing result; a client that goes away freeing its connection.

#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include "event_recorder.hpp"
#include "http_client.hpp"
#include "http_test_server.hpp"
#include "test_support.hpp"

#include <boost/asio/this_coro.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

/// A subscriptions/listen POST numbered `id`, asking for `filter`.
http_request listen_post(int id, json::object filter) {
  json::object params{{"notifications", std::move(filter)}};
  return modern_post(id, "subscriptions/listen", std::move(params));
}

const json::object tools_changes{{"toolsListChanged", true}};

/// Opens a listen stream on `c`; its acknowledgement checked.
asio::awaitable<void> open_listen(http_connection& c, int id, json::object filter = tools_changes) {
  co_await c.write(listen_post(id, std::move(filter)));
  const auto head = co_await c.read_head();
  CO_ASSERT_TRUE(head.status == 200u);
  EXPECT_EQ(head.headers[http::field::content_type], "text/event-stream");
  const auto ack = co_await c.next_message();
  CO_ASSERT_TRUE(ack.has_value());
  EXPECT_EQ(ack->at("method"), "notifications/subscriptions/acknowledged");
}

/// The subscriptionId a notification carries.
json::value subscription_of(const json::value& note) {
  return note.at("params").at("_meta").at("io.modelcontextprotocol/subscriptionId");
}

TEST(HttpListen, ManyStreamsEachHearEveryChangeTheyAskedForOnceWithTheirOwnId) {
  run_http_test([](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    prompt_info greeting;  // (a prompt: the server then announces prompt list changes)
    greeting.name = "greeting";
    s.tools->add_prompt(greeting, [](const prompt_arguments&, request_context&) -> asio::awaitable<get_prompt_result> {
      co_return get_prompt_result{};
    });
    constexpr int streams = 40;
    std::vector<std::unique_ptr<http_connection>> tools;
    for (int id = 1; id <= streams; ++id) {
      auto& c = tools.emplace_back(std::make_unique<http_connection>(ex, s.port()));
      co_await open_listen(*c, id);
    }
    http_connection prompts_only(ex, s.port());
    json::object prompts_changes{{"promptsListChanged", true}};  // (named: g++ 12 and braced temporaries in co_await)
    co_await open_listen(prompts_only, 100, std::move(prompts_changes));

    for (int change = 0; change < 2; ++change) {
      s.tools->notify_tools_changed();
      for (int id = 1; id <= streams; ++id) {
        const auto note = co_await tools[id - 1]->next_message();
        CO_ASSERT_TRUE(note.has_value());
        EXPECT_EQ(note->at("method"), "notifications/tools/list_changed");
        EXPECT_EQ(subscription_of(*note), id);
      }
    }
    // The prompts stream heard none of that: the next it hears is its own kind.
    s.tools->notify_prompts_changed();
    const auto note = co_await prompts_only.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/prompts/list_changed");
    EXPECT_EQ(subscription_of(*note), 100);
  });
}

TEST(HttpListen, AQuietStreamIsKeptAlive) {
  http_server_options options;
  options.keep_alive_interval = std::chrono::seconds(1);
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection c(ex, s.port());
    co_await open_listen(c, 1);
    // Quiet for three intervals: keep-alive comments come before the next notification.
    co_await sleep_for(3s);
    s.tools->notify_tools_changed();
    const auto note = co_await c.next_message();
    CO_ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->at("method"), "notifications/tools/list_changed");
    EXPECT_GE(c.comments(), 1u);
  });
}

TEST(HttpListen, ShutdownEndsEveryStreamWithItsClosingResult) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    test_server s(ex, {});
    std::vector<std::unique_ptr<http_connection>> listeners;
    for (int id = 1; id <= 3; ++id) {
      auto& c = listeners.emplace_back(std::make_unique<http_connection>(ex, s.port()));
      co_await open_listen(*c, id);
    }
    s.http.stop();
    for (int id = 1; id <= 3; ++id) {
      auto& c = *listeners[id - 1];
      const auto closing = co_await c.next_message(2s);
      CO_ASSERT_TRUE(closing.has_value());
      EXPECT_EQ(closing->at("id"), id);
      EXPECT_TRUE(closing->as_object().contains("result")) << closing->as_object();
      const auto after = co_await c.next_message(2s);
      EXPECT_FALSE(after.has_value()) << "the stream went on after its closing result";
    }
    const std::function<bool()> returned = [&s] { return s.state->returned.load(); };
    const bool prompt = co_await wait_until(returned, 2s);
    EXPECT_TRUE(prompt) << "run() waited for the listen streams";
    if (!prompt) co_await s.stop_and_wait();  // (cancels what is left)
    EXPECT_FALSE(s.state->failure) << "run() threw";
  });
}

TEST(HttpListen, AClientThatGoesAwayFreesItsConnection) {
  // One connection at a time: the next can only be served once the stream's is free.
  http_server_options options;
  options.max_connections = 1;
  run_http_test(options, [](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    for (int id = 1; id <= 3; ++id) {
      // (The server may not have seen the last one go yet: refused connections are tried again.)
      const auto until = clock_type::now() + 3s;
      for (;;) {
        http_connection c(ex, s.port());
        try {
          co_await open_listen(c, id);
          s.tools->notify_tools_changed();  // (heard, then the client goes without a word)
          const auto note = co_await c.next_message();
          CO_ASSERT_TRUE(note.has_value());
          break;
        } catch (const std::exception& e) {
          if (clock_type::now() > until) {
            ADD_FAILURE() << "listen stream " << id << " never got a connection: " << e.what();
            co_return;
          }
        }
        co_await sleep_for(20ms);
      }
    }
    // The notifications meant for the streams that went reach nobody, and harm nothing.
    s.tools->notify_tools_changed();
    co_await sleep_for(50ms);
  });
}

TEST(HttpListen, TelemetrySeesEachStreamOpenAndClose) {
  // (What the mcp_server_streams_open gauge counts.)
  event_recorder streams({telemetry::event::stream_opened, telemetry::event::stream_closed});
  run_http_test([&](test_server& s) -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    http_connection first(ex, s.port());
    http_connection second(ex, s.port());
    co_await open_listen(first, 1);
    co_await open_listen(second, 2);
    EXPECT_EQ(streams.of(telemetry::event::stream_opened).size(), 2u);
    EXPECT_TRUE(streams.of(telemetry::event::stream_closed).empty());
    s.tools->notify_tools_changed();
    CO_ASSERT_TRUE((co_await first.next_message()).has_value());
    first.close();
    const std::function<bool()> one_closed = [&] { return streams.of(telemetry::event::stream_closed).size() == 1; };
    CO_ASSERT_TRUE(co_await wait_until(one_closed, 2s));
    // The acknowledgement and the change.
    EXPECT_EQ(streams.of(telemetry::event::stream_closed).front().measurements["events"], 2.0);
  });
  // The other ended with the server.
  EXPECT_EQ(streams.of(telemetry::event::stream_closed).size(), 2u);
}

}  // namespace
}  // namespace mcp::test
