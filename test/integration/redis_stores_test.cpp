// The Redis stores of caduceus::cluster (<mcp/cluster/redis.hpp>) against a
// redis-server of each test's own: two redis_stores on one Redis are two
// nodes, and what one records the other reads. Sessions, events and stream
// records, the message bus and node liveness, a Redis that dies and comes
// back, and close(). On an io_context of 4 threads; every wait is bounded,
// and run_on_threads fails a test that leaves work on the io_context.

#include <mcp/cluster/redis.hpp>
#include <mcp/error.hpp>
#include <mcp/server/store_error.hpp>

#include "cluster/redis/connection.hpp"

#include "http_client.hpp"
#include "http_test_server.hpp"
#include "redis_node.hpp"
#include "run_on_threads.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/json/parse.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <csignal>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
namespace redis = mcp::detail::redis;
using mcp::test::eventually;
using mcp::test::redis_server;
using mcp::test::run_on_threads;
using mcp::test::sleep_for;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

using mcp::test::quick_options;
using node = mcp::test::redis_node;

mcp::session_record sample_record(std::string id) {
  mcp::negotiated_session negotiated;
  negotiated.version = mcp::protocol_version::v2025_06_18;
  negotiated.client_info = {"inspector", "0.9"};
  negotiated.client_info.title = "The Inspector";
  negotiated.client_capabilities = json::object{{"sampling", json::object{}}, {"roots", {{"listChanged", true}}}};
  mcp::session_record record{std::move(id)};
  record.negotiated = std::move(negotiated);
  record.owner = "alice";
  return record;
}

std::vector<std::uint64_t> seqs_of(const std::vector<mcp::stored_event>& events) {
  std::vector<std::uint64_t> seqs;
  for (const auto& e : events) seqs.push_back(e.seq);
  return seqs;
}

/// The messages a subscription received, from the subscriber's strand.
struct bus_inbox {
  std::mutex mutex;
  std::vector<std::string> messages;
  std::atomic<int> gaps{0};

  mcp::message_bus::handler handler() {
    return [this](std::string_view message) {
      std::lock_guard lock(mutex);
      messages.emplace_back(message);
    };
  }
  std::function<void()> on_gap() {
    return [this] { ++gaps; };
  }
  std::size_t size() {
    std::lock_guard lock(mutex);
    return messages.size();
  }
  std::vector<std::string> copy() {
    std::lock_guard lock(mutex);
    return messages;
  }
};

std::vector<std::string> numbered(int from, int to) {
  std::vector<std::string> out;
  for (int i = from; i <= to; ++i) out.push_back("message " + std::to_string(i));
  return out;
}

class RedisStores : public mcp::test::redis_test {};

// As in redis_client_test: each co_await on its own line, its result named,
// no braced list, lambda or aggregate temporary inside a co_await expression
// (docs/compilers.md).

TEST_F(RedisStores, ASessionPutByOneNodeIsTouchedAndRemovedByAnother) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    const auto record = sample_record("5e551011");
    co_await a.sessions().put(record, 60s);

    const auto found = co_await b.sessions().touch("5e551011", 60s);
    CO_ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->id, "5e551011");
    EXPECT_EQ(found->owner, "alice");
    CO_ASSERT_TRUE(found->negotiated.has_value());
    EXPECT_EQ(found->negotiated->version, mcp::protocol_version::v2025_06_18);
    EXPECT_EQ(found->negotiated->client_info.name, "inspector");
    EXPECT_EQ(found->negotiated->client_info.version, "0.9");
    EXPECT_EQ(found->negotiated->client_info.title, "The Inspector");
    EXPECT_EQ(found->negotiated->client_capabilities, record.negotiated->client_capabilities);

    // Readable in Redis, under the prefix.
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto stored = co_await raw->command("GET", "test:session:5e551011");
    const auto as_json = json::parse(stored.as_string());
    EXPECT_EQ(as_json.at("negotiated").at("protocolVersion"), "2025-06-18");
    EXPECT_EQ(as_json.at("negotiated").at("clientInfo").at("name"), "inspector");
    raw->close();

    // A session not yet initialized has no negotiated part.
    mcp::session_record fresh{"f4e5"};
    co_await b.sessions().put(fresh, 60s);
    const auto fresh_found = co_await a.sessions().touch("f4e5", 60s);
    CO_ASSERT_TRUE(fresh_found.has_value());
    EXPECT_FALSE(fresh_found->negotiated.has_value());
    EXPECT_EQ(fresh_found->owner, "");

    const bool alive = co_await a.sessions().alive("5e551011");
    EXPECT_TRUE(alive);
    const auto unknown = co_await a.sessions().touch("no-such-session", 60s);
    EXPECT_FALSE(unknown.has_value());
    const bool unknown_alive = co_await a.sessions().alive("no-such-session");
    EXPECT_FALSE(unknown_alive);

    co_await b.sessions().remove("5e551011");
    const bool alive_after = co_await a.sessions().alive("5e551011");
    EXPECT_FALSE(alive_after);
    const auto touched_after = co_await a.sessions().touch("5e551011", 60s);
    EXPECT_FALSE(touched_after.has_value());
  });
}

TEST_F(RedisStores, SessionStateSavedByOneNodeIsTouchedByAnotherKeyByKey) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    const auto record = sample_record("57a7e");
    co_await a.sessions().put(record, 60s);
    const auto fresh = co_await b.sessions().touch("57a7e", 60s);
    CO_ASSERT_TRUE(fresh.has_value());
    EXPECT_TRUE(fresh->state.empty());
    EXPECT_EQ(fresh->state_version, 0u);

    // Two nodes save different keys: neither undoes the other's.
    const json::object cart{{"cart", json::object{{"items", json::array{"apple", 2}}, {"total", 12.5}}}};
    co_await a.sessions().save_state("57a7e", cart);
    const json::object level{{"mcp/logLevel", "warning"}};
    co_await b.sessions().save_state("57a7e", level);
    const auto both = co_await b.sessions().touch("57a7e", 60s);
    CO_ASSERT_TRUE(both.has_value());
    EXPECT_EQ(both->state.at("cart"), cart.at("cart"));
    EXPECT_EQ(both->state.at("mcp/logLevel"), "warning");
    EXPECT_EQ(both->state_version, 2u);
    EXPECT_EQ(both->negotiated->client_info.name, "inspector") << "the record is as it was";

    // A key saved again takes its new value; the version counts on.
    const json::object emptied{{"cart", json::object{{"items", json::array{}}, {"total", 0}}}};
    co_await a.sessions().save_state("57a7e", emptied);
    const auto again = co_await a.sessions().touch("57a7e", 60s);
    CO_ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->state.at("cart"), emptied.at("cart"));
    EXPECT_EQ(again->state_version, 3u);

    // The state goes with its session, and is not saved for one that is gone.
    co_await b.sessions().remove("57a7e");
    co_await a.sessions().save_state("57a7e", cart);
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto left = co_await raw->command("EXISTS", "test:session-state:57a7e");
    EXPECT_EQ(left.as_integer(), 0);
    raw->close();
  });
}

TEST_F(RedisStores, RefreshReadsTheStateVersionAndTheStateOnlyOnceAnotherNodeChangedIt) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    const auto record = sample_record("5e55");
    co_await a.sessions().put(record, 1s);
    const auto fresh = co_await b.sessions().refresh("5e55", 60s, 0);
    CO_ASSERT_TRUE(fresh.has_value());
    EXPECT_EQ(fresh->state_version, 0u);
    EXPECT_FALSE(fresh->state.has_value()) << "no state saved: version 0, which b has";

    // The expiry was pushed back to 60 s, like touch() does: both keys.
    json::object cart;
    cart["cart"] = json::array{"apple"};
    co_await a.sessions().save_state("5e55", cart);
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto record_ttl = co_await raw->command("PTTL", "test:session:5e55");
    EXPECT_GT(record_ttl.as_integer(), 2000);
    const auto state_ttl = co_await raw->command("PTTL", "test:session-state:5e55");
    EXPECT_GT(state_ttl.as_integer(), 2000);
    raw->close();

    const auto changed = co_await b.sessions().refresh("5e55", 60s, 0);
    CO_ASSERT_TRUE(changed.has_value());
    EXPECT_EQ(changed->state_version, 1u);
    CO_ASSERT_TRUE(changed->state.has_value());
    EXPECT_EQ(changed->state->at("cart"), cart.at("cart"));
    const auto known = co_await b.sessions().refresh("5e55", 60s, 1);
    CO_ASSERT_TRUE(known.has_value());
    EXPECT_EQ(known->state_version, 1u);
    EXPECT_FALSE(known->state.has_value()) << "b has version 1 already";

    co_await a.sessions().remove("5e55");
    const auto gone = co_await b.sessions().refresh("5e55", 60s, 1);
    EXPECT_FALSE(gone.has_value());
    const auto unknown = co_await b.sessions().refresh("no-such-session", 60s, 0);
    EXPECT_FALSE(unknown.has_value());
  });
}

// Two HTTP servers on one Redis: a session's described state follows it from
// one to the other call by call, each server asking the store's refresh()
// on every request whether the other changed it.
TEST_F(RedisStores, TwoServersHandASessionsStateToEachOtherCallByCall) {
  mcp::test::run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::http_server_options options;
    options.make_stores = mcp::cluster::make_redis_stores(quick_options(*server));
    mcp::test::test_server a(ex, options, 1);
    mcp::test::test_server b(ex, options, 1);
    std::exception_ptr failure;
    try {
      mcp::test::http_connection to_a(ex, a.port());
      const auto session = co_await mcp::test::open_session(to_a);
      for (int call = 1; call <= 4; ++call) {
        const auto tally = mcp::test::rpc_request(call, "tools/call", mcp::test::tool_call("tally", json::object{}));
        const auto req = mcp::test::session_post(tally, session);
        const auto reply = co_await mcp::test::http_call(call % 2 ? a.port() : b.port(), req);
        EXPECT_EQ(reply.status, 200u);
        EXPECT_EQ(mcp::test::first_text(reply.json().at("result").as_object()), std::to_string(call))
            << "call " << call << " on server " << (call % 2 ? "a" : "b");
      }
    } catch (...) {
      failure = std::current_exception();
    }
    co_await a.stop_and_wait();
    co_await b.stop_and_wait();
    if (failure) std::rethrow_exception(failure);
  });
}

TEST_F(RedisStores, ASessionExpiresUnlessTouched) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    const auto touched = sample_record("touched");
    const auto left = sample_record("left");
    co_await a.sessions().put(touched, 1s);
    co_await a.sessions().put(left, 1s);
    co_await sleep_for(600ms);
    const auto kept = co_await b.sessions().touch("touched", 1s);  // 1 s from now again
    EXPECT_TRUE(kept.has_value());
    co_await sleep_for(600ms);  // 1.2 s after the put
    const bool touched_alive = co_await a.sessions().alive("touched");
    EXPECT_TRUE(touched_alive);
    const bool left_alive = co_await a.sessions().alive("left");
    EXPECT_FALSE(left_alive);
    // alive() does not touch: the touched one expires 1 s after its touch.
    bool gone = false;
    for (int i = 0; i < 40 && !gone; ++i) {
      co_await sleep_for(50ms);
      const bool still = co_await a.sessions().alive("touched");
      gone = !still;
    }
    EXPECT_TRUE(gone);
    const auto after = co_await b.sessions().touch("touched", 1s);
    EXPECT_FALSE(after.has_value());
  });
}

TEST_F(RedisStores, EventsAppendedByOneNodeAreReplayedByAnotherInOrder) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    for (std::uint64_t seq = 1; seq <= 5; ++seq) a.events().append("s1", "st1", seq, "event " + std::to_string(seq));
    // A duplicate and an older one: dropped.
    a.events().append("s1", "st1", 5, "a duplicate");
    a.events().append("s1", "st1", 3, "an old one");
    // Awaited on a's own connection: what a sent before is in.
    co_await a.events().replay("s1", "st1", 0);
    // The same from the other node, then the next one.
    b.events().append("s1", "st1", 5, "the other node's");
    b.events().append("s1", "st1", 2, "the other node's old one");
    b.events().append("s1", "st1", 6, "event 6");
    b.events().append("s1", "other stream", 1, "elsewhere");
    co_await b.events().replay("s1", "st1", 0);

    const auto all = co_await a.events().replay("s1", "st1", 0);
    const std::vector<std::uint64_t> one_to_six{1, 2, 3, 4, 5, 6};
    EXPECT_EQ(seqs_of(all), one_to_six);
    CO_ASSERT_TRUE(all.size() == 6u);
    for (const auto& e : all) EXPECT_EQ(e.data, "event " + std::to_string(e.seq));

    const auto after_two = co_await b.events().replay("s1", "st1", 2);
    const std::vector<std::uint64_t> three_to_six{3, 4, 5, 6};
    EXPECT_EQ(seqs_of(after_two), three_to_six);
    const auto after_all = co_await b.events().replay("s1", "st1", 6);
    EXPECT_TRUE(after_all.empty());
    const auto unknown = co_await b.events().replay("s1", "no such stream", 0);
    EXPECT_TRUE(unknown.empty());
    const auto other = co_await b.events().replay("s1", "other stream", 0);
    CO_ASSERT_TRUE(other.size() == 1u);
    EXPECT_EQ(other[0].data, "elsewhere");

    // Events expire event_ttl after their stream's last append.
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto ttl = co_await raw->command("PTTL", "test:events:s1:st1");
    EXPECT_GT(ttl.as_integer(), 3590 * 1000);
    EXPECT_LE(ttl.as_integer(), 3600 * 1000);
    raw->close();
  });
}

TEST_F(RedisStores, AStreamKeepsItsNewestEventsOnly) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto options = quick_options(*server);
    options.max_events_per_stream = 10;
    node a(io, options), b(io, options);
    for (std::uint64_t seq = 1; seq <= 1000; ++seq) a.events().append("s", "st", seq, std::to_string(seq));
    co_await a.events().replay("s", "st", 0);  // the appends are in

    const auto kept = co_await b.events().replay("s", "st", 0);
    // Trimmed approximately (MAXLEN ~, whole nodes of 100 entries): at
    // least the newest 10, far fewer than 1000, and no hole among them.
    EXPECT_GE(kept.size(), 10u);
    EXPECT_LE(kept.size(), 200u);
    CO_ASSERT_TRUE(!kept.empty());
    EXPECT_EQ(kept.back().seq, 1000u);
    EXPECT_EQ(kept.back().data, "1000");
    bool consecutive = true;
    for (std::size_t i = 1; i < kept.size(); ++i) consecutive = consecutive && kept[i].seq == kept[i - 1].seq + 1;
    EXPECT_TRUE(consecutive);
    const auto last_five = co_await b.events().replay("s", "st", 995);
    const std::vector<std::uint64_t> expected{996, 997, 998, 999, 1000};
    EXPECT_EQ(seqs_of(last_five), expected);
  });
}

TEST_F(RedisStores, StreamRecordsAreOpenedEndedAndFoundByAnotherNode) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    const std::vector<std::string> owed{"1", "\"call-7\""};
    a.events().open_stream("s", "post", owed);
    a.events().append("s", "post", 1, "progress");
    a.events().open_stream("s", "get", {});
    co_await a.events().replay("s", "post", 0);

    const auto open = co_await b.events().find_stream("s", "post");
    CO_ASSERT_TRUE(open.has_value());
    EXPECT_EQ(open->owed, owed);
    EXPECT_FALSE(open->ended);
    const auto get = co_await b.events().find_stream("s", "get");
    CO_ASSERT_TRUE(get.has_value());
    EXPECT_TRUE(get->owed.empty());
    EXPECT_FALSE(get->ended);

    a.events().append("s", "post", 2, "the answer");
    a.events().end_stream("s", "post");
    // Ending a stream with no record does not make one.
    a.events().end_stream("s", "never opened");
    co_await a.events().replay("s", "post", 0);
    const auto ended = co_await b.events().find_stream("s", "post");
    CO_ASSERT_TRUE(ended.has_value());
    EXPECT_EQ(ended->owed, owed);
    EXPECT_TRUE(ended->ended);
    const auto never = co_await b.events().find_stream("s", "never opened");
    EXPECT_FALSE(never.has_value());
    const auto unknown = co_await b.events().find_stream("other session", "post");
    EXPECT_FALSE(unknown.has_value());
  });
}

TEST_F(RedisStores, ForgettingASessionRemovesAllItsEventsAndRecords) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    const std::vector<std::string> owed{"1"};
    for (const std::string stream : {"one", "two", "three"}) {
      a.events().open_stream("gone", stream, owed);
      for (std::uint64_t seq = 1; seq <= 3; ++seq) a.events().append("gone", stream, seq, "x");
    }
    a.events().append("kept", "one", 1, "y");
    co_await a.events().replay("gone", "one", 0);
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto before = co_await raw->command("KEYS", "test:*gone*");
    EXPECT_EQ(before.as_array().size(), 7u);  // 3 event streams, 3 records, the set

    b.events().forget("gone");
    co_await b.events().replay("gone", "one", 0);
    const auto after = co_await raw->command("KEYS", "test:*gone*");
    EXPECT_EQ(after.as_array().size(), 0u);
    const auto replayed = co_await a.events().replay("gone", "two", 0);
    EXPECT_TRUE(replayed.empty());
    const auto record = co_await a.events().find_stream("gone", "two");
    EXPECT_FALSE(record.has_value());
    // Another session's events stay.
    const auto kept = co_await a.events().replay("kept", "one", 0);
    EXPECT_EQ(kept.size(), 1u);
    raw->close();
  });
}

TEST_F(RedisStores, MessagesPublishedOnOneNodeReachEverySubscriberOnAnotherInOrder) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    bus_inbox first, second, elsewhere;
    auto first_handle = co_await b.bus().subscribe("session-1", first.handler(), first.on_gap());
    auto second_handle = co_await b.bus().subscribe("session-1", second.handler(), second.on_gap());
    auto elsewhere_handle = co_await b.bus().subscribe("session-2", elsewhere.handler(), elsewhere.on_gap());

    // One Redis subscription for the two local ones.
    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const auto subscribers = co_await raw->command("PUBSUB", "NUMSUB", "test:bus:session-1");
    EXPECT_EQ(subscribers.at(1).as_integer(), 1);

    for (const auto& m : numbered(1, 300)) a.bus().publish("session-1", m);
    auto both_in = [&] { return first.size() == 300 && second.size() == 300; };
    const bool delivered = co_await eventually(both_in);
    EXPECT_TRUE(delivered);
    EXPECT_EQ(first.copy(), numbered(1, 300));
    EXPECT_EQ(second.copy(), numbered(1, 300));
    EXPECT_EQ(elsewhere.size(), 0u);

    // A dropped handle stops its delivery; the other goes on.
    first_handle.reset();
    for (const auto& m : numbered(301, 310)) a.bus().publish("session-1", m);
    auto second_has_all = [&] { return second.size() == 310; };
    const bool more = co_await eventually(second_has_all);
    EXPECT_TRUE(more);
    co_await sleep_for(50ms);
    EXPECT_EQ(first.size(), 300u);

    // The last one gone, Redis unsubscribes the node.
    second_handle.reset();
    bool none = false;
    for (int i = 0; i < 100 && !none; ++i) {
      const auto count = co_await raw->command("PUBSUB", "NUMSUB", "test:bus:session-1");
      none = count.at(1).as_integer() == 0;
      if (!none) co_await sleep_for(20ms);
    }
    EXPECT_TRUE(none);
    a.bus().publish("session-1", "unheard");
    a.bus().publish("session-2", "heard");
    auto heard = [&] { return elsewhere.size() == 1; };
    const bool elsewhere_heard = co_await eventually(heard);
    EXPECT_TRUE(elsewhere_heard);
    EXPECT_EQ(second.size(), 310u);

    // Subscribing again after the last one went works at once.
    bus_inbox again;
    auto again_handle = co_await b.bus().subscribe("session-1", again.handler(), again.on_gap());
    a.bus().publish("session-1", "welcome back");
    auto back = [&] { return again.size() == 1; };
    const bool back_in = co_await eventually(back);
    EXPECT_TRUE(back_in);
    EXPECT_EQ(first.gaps + second.gaps + again.gaps + elsewhere.gaps, 0);
    raw->close();
  });
}

TEST_F(RedisStores, SubscriptionsTakenAndDroppedAtOnceLeaveRedisSubscribedExactlyWhenWanted) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    node a(io, quick_options(*server)), b(io, quick_options(*server));
    // 8 coroutines on 4 threads take and drop subscriptions of one channel,
    // 40 times each: the Redis side must end as the last wish says.
    constexpr int workers = 8, rounds = 40;
    std::atomic<int> done{0}, failed{0};
    for (int w = 0; w < workers; ++w)
      asio::co_spawn(
          asio::make_strand(io),
          [&]() -> asio::awaitable<void> {
            for (int i = 0; i < rounds; ++i) {
              bus_inbox ignored;
              auto handle = co_await b.bus().subscribe("busy", ignored.handler(), nullptr);
            }
          },
          [&](std::exception_ptr e) {
            if (e) ++failed;
            ++done;
          });
    auto all_done = [&] { return done == workers; };
    const bool finished = co_await eventually(all_done, 10s);
    CO_ASSERT_TRUE(finished);
    EXPECT_EQ(failed, 0);

    auto raw = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    bool none = false;
    for (int i = 0; i < 100 && !none; ++i) {
      const auto count = co_await raw->command("PUBSUB", "NUMSUB", "test:bus:busy");
      none = count.at(1).as_integer() == 0;
      if (!none) co_await sleep_for(20ms);
    }
    EXPECT_TRUE(none) << "no local subscription is left, but Redis still sends the channel to the node";

    bus_inbox last;
    auto handle = co_await b.bus().subscribe("busy", last.handler(), nullptr);
    a.bus().publish("busy", "heard");
    auto heard = [&] { return last.size() == 1; };
    const bool delivered = co_await eventually(heard);
    EXPECT_TRUE(delivered);
    raw->close();
  });
}

TEST_F(RedisStores, AMessageIsPublishedAfterTheEventsAppendedBeforeIt) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    // The order is under test, not the deadlines: 400 commands sent at once
    // may take more than quick_options' 500 ms under ThreadSanitizer.
    auto options = quick_options(*server);
    options.command_timeout = 5s;
    node a(io, options), b(io, options);
    // Node b hears "event n is out" and replays at once: event n is there.
    std::atomic<int> checked{0}, missing{0};
    auto events = b.stores.events;
    auto check = [&, events](std::string_view message) {
      const auto seq = std::stoull(std::string(message));
      asio::co_spawn(
          io,
          [&, events, seq]() -> asio::awaitable<void> {
            const auto found = co_await events->replay("s", "st", seq - 1);
            if (found.empty() || found.front().seq != seq) ++missing;
            ++checked;
          },
          asio::detached);
    };
    auto handle = co_await b.bus().subscribe("s", check, nullptr);
    for (std::uint64_t seq = 1; seq <= 200; ++seq) {
      a.events().append("s", "st", seq, "event");
      a.bus().publish("s", std::to_string(seq));
    }
    auto all_checked = [&] { return checked == 200; };
    const bool done = co_await eventually(all_checked);
    EXPECT_TRUE(done);
    EXPECT_EQ(missing, 0);
  });
}

TEST_F(RedisStores, ANodeIsAliveWhileItsStoresAreOpen) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    std::optional<node> a;
    a.emplace(io, quick_options(*server));
    node b(io, quick_options(*server));
    const auto a_id = a->bus().node_id();
    EXPECT_FALSE(a_id.empty());
    EXPECT_TRUE(std::all_of(a_id.begin(), a_id.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); }))
        << a_id;
    EXPECT_NE(a_id, b.bus().node_id());

    const bool self = co_await a->bus().node_alive(a_id);
    EXPECT_TRUE(self);
    const bool seen = co_await b.bus().node_alive(a_id);
    EXPECT_TRUE(seen);
    const bool stranger = co_await b.bus().node_alive("nosuchnode");
    EXPECT_FALSE(stranger);
    // The heartbeat keeps it alive past node_ttl (300 ms).
    co_await sleep_for(800ms);
    const bool still = co_await b.bus().node_alive(a_id);
    EXPECT_TRUE(still);

    a.reset();  // closes its stores
    const auto closed_at = clock_type::now();
    bool dead = false;
    while (!dead && clock_type::now() - closed_at < 2s) {
      co_await sleep_for(50ms);
      const bool alive = co_await b.bus().node_alive(a_id);
      dead = !alive;
    }
    EXPECT_TRUE(dead) << "a node whose stores are closed still looked alive 2 s later";
    EXPECT_GE(clock_type::now() - closed_at, 200ms) << "the node died before its node_ttl passed";
  });
}

TEST_F(RedisStores, WithRedisDeadCallsThrowAndWithRedisBackTheyWorkAgain) {
  run_on_threads(
      [&](asio::io_context& io) -> asio::awaitable<void> {
        node a(io, quick_options(*server)), b(io, quick_options(*server));
        bus_inbox heard;
        auto handle = co_await b.bus().subscribe("news", heard.handler(), heard.on_gap());
        const auto record = sample_record("s");
        co_await a.sessions().put(record, 60s);

        server->kill(SIGKILL);
        co_await sleep_for(50ms);  // the connections see their sockets close
        const auto started = clock_type::now();
        auto put = a.sessions().put(record, 60s);
        const auto put_failure = co_await mcp::test::store_failure_of(std::move(put));
        EXPECT_TRUE(put_failure.has_value());
        auto touch = b.sessions().touch("s", 60s);
        const auto touch_failure = co_await mcp::test::store_failure_of(std::move(touch));
        EXPECT_TRUE(touch_failure.has_value());
        auto alive = b.sessions().alive("s");
        const auto alive_failure = co_await mcp::test::store_failure_of(std::move(alive));
        EXPECT_TRUE(alive_failure.has_value());
        auto replay = b.events().replay("s", "st", 0);
        const auto replay_failure = co_await mcp::test::store_failure_of(std::move(replay));
        EXPECT_TRUE(replay_failure.has_value());
        auto find = b.events().find_stream("s", "st");
        const auto find_failure = co_await mcp::test::store_failure_of(std::move(find));
        EXPECT_TRUE(find_failure.has_value());
        auto node_alive = b.bus().node_alive(a.bus().node_id());
        const auto node_failure = co_await mcp::test::store_failure_of(std::move(node_alive));
        EXPECT_TRUE(node_failure.has_value());
        bus_inbox refused;
        auto subscribe = b.bus().subscribe("other", refused.handler(), refused.on_gap());
        const auto subscribe_failure = co_await mcp::test::store_failure_of(std::move(subscribe));
        EXPECT_TRUE(subscribe_failure.has_value());
        // At once, not at a deadline.
        EXPECT_LT(clock_type::now() - started, 400ms);
        // What does not wait does not throw.
        a.events().append("s", "st", 1, "lost");
        a.bus().publish("news", "lost");

        server->restart();
        // Both nodes reconnect by themselves (backoff up to 2 s).
        bool back = false;
        const auto restarted_at = clock_type::now();
        while (!back && clock_type::now() - restarted_at < 5s) {
          auto retry = a.sessions().put(record, 60s);
          const auto failure = co_await mcp::test::store_failure_of(std::move(retry));
          back = !failure;
          if (!back) co_await sleep_for(50ms);
        }
        CO_ASSERT_TRUE(back);
        auto gap = [&] { return heard.gaps >= 1; };
        const bool told = co_await eventually(gap);
        EXPECT_TRUE(told) << "on_gap was not called after the bus reconnected";

        // The appends' script is known to the new Redis (loaded on reconnection).
        a.events().append("s", "st", 2, "after");
        const auto replayed = co_await a.events().replay("s", "st", 0);
        CO_ASSERT_TRUE(!replayed.empty());
        EXPECT_EQ(replayed.back().seq, 2u);
        EXPECT_EQ(replayed.back().data, "after");
        // Node b reads, and hears again.
        bool b_back = false;
        while (!b_back && clock_type::now() - restarted_at < 5s) {
          auto retry = b.sessions().touch("s", 60s);
          const auto failure = co_await mcp::test::store_failure_of(std::move(retry));
          b_back = !failure;
          if (!b_back) co_await sleep_for(50ms);
        }
        EXPECT_TRUE(b_back);
        a.bus().publish("news", "after");
        auto after = [&] { return heard.size() >= 1 && heard.copy().back() == "after"; };
        const bool heard_after = co_await eventually(after);
        EXPECT_TRUE(heard_after);
        co_await sleep_for(300ms);  // a heartbeat since a reconnected
        const bool alive_again = co_await b.bus().node_alive(a.bus().node_id());
        EXPECT_TRUE(alive_again);
      },
      20s);
}

TEST_F(RedisStores, CloseLeavesTheIoContextWithoutWork) {
  asio::io_context io;  // one thread: this one
  std::optional<mcp::shared_stores> stores;
  std::promise<bool> used;
  auto used_future = used.get_future();
  stores = mcp::cluster::make_redis_stores(quick_options(*server))(io.get_executor());
  asio::co_spawn(
      io,
      [&]() -> asio::awaitable<void> {
        const auto record = sample_record("s");
        co_await stores->sessions->put(record, 60s);
        bus_inbox heard;
        auto handle = co_await stores->bus->subscribe("c", heard.handler(), nullptr);
        stores->events->append("s", "st", 1, "x");
        const auto events = co_await stores->events->replay("s", "st", 0);
        stores->close();
        handle.reset();  // after close(): its unsubscription ends at once
        used.set_value(events.size() == 1);
      },
      asio::detached);
  auto ran = std::async(std::launch::async, [&] { io.run(); });
  const bool returned = ran.wait_for(5s) == std::future_status::ready;
  if (!returned) io.stop();
  ran.wait();
  EXPECT_TRUE(returned) << "io.run() did not return within 5 s of close()";
  ASSERT_EQ(used_future.wait_for(0s), std::future_status::ready);
  EXPECT_TRUE(used_future.get());
  stores.reset();
}

TEST_F(RedisStores, AMalformedUrlIsRefused) {
  asio::io_context io;
  mcp::cluster::redis_options options;
  options.url = "http://127.0.0.1:6379";
  EXPECT_THROW(mcp::cluster::redis_stores(io.get_executor(), options), mcp::invalid_argument);
}

}  // namespace
