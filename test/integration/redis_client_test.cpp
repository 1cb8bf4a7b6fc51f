// The Redis client of caduceus::cluster (src/cluster/redis) against a
// redis-server of each test's own (test/support/redis_server.hpp): commands,
// pipelines, scripts, pub/sub, and what happens when Redis freezes, dies and
// comes back. The client runs on an io_context of 4 threads, as a server's
// would. Every wait is bounded.

#include "cluster/redis/connection.hpp"
#include "cluster/redis/subscriber.hpp"

#include "redis_server.hpp"
#include "run_on_threads.hpp"
#include "test_support.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <future>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace redis = mcp::detail::redis;
using mcp::test::eventually;
using mcp::test::redis_server;
using mcp::test::run_on_threads;
using mcp::test::sleep_for;
using namespace std::chrono_literals;
using clock_type = std::chrono::steady_clock;

/// Why `call` was unavailable; nullopt when it succeeded.
template <class T>
asio::awaitable<std::optional<redis::unavailable>> unavailable_from(asio::awaitable<T> call) {
  try {
    co_await std::move(call);
  } catch (const redis::unavailable& e) {
    co_return e;
  }
  co_return std::nullopt;
}

/// Retries PING until it succeeds; how long that took, or nullopt past `limit`.
asio::awaitable<std::optional<std::chrono::milliseconds>> time_to_recover(redis::connection& c,
                                                                          std::chrono::milliseconds limit) {
  const auto start = clock_type::now();
  while (clock_type::now() - start < limit) {
    try {
      const auto pong = co_await c.command("PING");
      if (pong.is_status_equal("PONG"))
        co_return std::chrono::duration_cast<std::chrono::milliseconds>(clock_type::now() - start);
    } catch (const redis::unavailable&) {
    }
    co_await sleep_for(20ms);
  }
  co_return std::nullopt;
}

/// Short deadlines, so that the failure tests take a second, not minutes.
redis::config quick_config(const redis_server& server) {
  auto cfg = redis::config::from_url(server.url());
  cfg.connect_timeout = 500ms;
  cfg.command_timeout = 500ms;
  cfg.backoff_initial = 50ms;
  cfg.backoff_max = 400ms;
  return cfg;
}

/// Messages a subscriber received, from its strand, read by the test.
struct subscriber_inbox {
  std::mutex mutex;
  std::vector<std::pair<std::string, std::string>> messages;
  std::atomic<int> reconnects{0};

  redis::subscriber::message_handler handler() {
    return [this](std::string_view channel, std::string_view payload) {
      std::lock_guard lock(mutex);
      messages.emplace_back(channel, payload);
    };
  }
  std::size_t size() {
    std::lock_guard lock(mutex);
    return messages.size();
  }
  std::vector<std::pair<std::string, std::string>> copy() {
    std::lock_guard lock(mutex);
    return messages;
  }
};

class RedisClient : public mcp::test::redis_test {};

// Each co_await below stands on its own line, its result named, and no
// lambda is made inside a co_await expression: g++ 12 miscompiles co_await in
// conditions, rejects braced lists in a co_await expression
// (docs/compilers.md) and corrupts a closure made in one.

TEST_F(RedisClient, CommandsGetTheirRepliesOfEveryKind) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    auto ok = co_await c->command("SET", "greeting", "hello");
    EXPECT_TRUE(ok.is_status_equal("OK")) << ok.describe();
    auto greeting = co_await c->command("GET", "greeting");
    EXPECT_EQ(greeting.as_string(), "hello");
    auto one = co_await c->command("INCR", "counter");
    EXPECT_EQ(one.as_integer(), 1);
    auto answer = co_await c->command("INCRBY", "counter", 41);
    EXPECT_EQ(answer.as_integer(), 42);

    auto missing = co_await c->command("GET", "no such key");
    EXPECT_TRUE(missing.is_nil());
    EXPECT_EQ(missing.as_optional_string(), std::nullopt);

    // An error reply is a reply; used as a value it throws Redis's message.
    auto wrong = co_await c->command("LPUSH", "greeting", "x");
    EXPECT_TRUE(wrong.is_error_code("WRONGTYPE")) << wrong.describe();
    EXPECT_THROW(wrong.as_integer(), redis::error_reply);
    // ... and the connection goes on.
    auto pong = co_await c->command("PING");
    EXPECT_TRUE(pong.is_status_equal("PONG"));

    co_await c->command("RPUSH", "list", "a", "b", "c");
    auto list = co_await c->command("LRANGE", "list", 0, -1);
    CO_ASSERT_TRUE(list.as_array().size() == 3u);
    EXPECT_EQ(list.at(0).as_string(), "a");
    EXPECT_EQ(list.at(2).as_string(), "c");

    // A stream: arrays in arrays.
    co_await c->command("XADD", "events", "1-1", "data", "first");
    co_await c->command("XADD", "events", "1-2", "data", "second");
    auto range = co_await c->command("XRANGE", "events", "-", "+");
    CO_ASSERT_TRUE(range.as_array().size() == 2u);
    EXPECT_EQ(range.at(1).at(0).as_string(), "1-2");
    EXPECT_EQ(range.at(1).at(1).at(1).as_string(), "second");
    EXPECT_TRUE(c->connected());
  });
}

TEST_F(RedisClient, AMegabyteValueMakesTheRoundTripIntact) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    std::string value(1 << 20, '\0');
    std::mt19937 random(18);
    for (auto& ch : value) ch = static_cast<char>(random());  // NULs, CRLFs, anything
    co_await c->command("SET", "big", value);
    auto back = co_await c->command("GET", "big");
    EXPECT_TRUE(back.as_string() == value) << "a value of " << back.as_string().size() << " bytes came back";
    auto length = co_await c->command("STRLEN", "big");
    EXPECT_EQ(length.as_integer(), 1 << 20);
  });
}

TEST_F(RedisClient, APipelineAndTenThousandSendsKeepTheirOrder) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    std::vector<std::vector<std::string>> commands;
    for (int i = 0; i < 100; ++i) {
      commands.push_back({"INCR", "n"});
      commands.push_back({"ECHO", "echo " + std::to_string(i)});
    }
    auto replies = co_await c->pipeline(commands);
    CO_ASSERT_TRUE(replies.size() == 200u);
    for (int i = 0; i < 100; ++i) {
      EXPECT_EQ(replies[2 * i].as_integer(), i + 1);
      EXPECT_EQ(replies[2 * i + 1].as_string(), "echo " + std::to_string(i));
    }

    for (int i = 0; i < 10000; ++i) c->send({"RPUSH", "appended", std::to_string(i)});
    auto all = co_await c->command("LRANGE", "appended", 0, -1);
    CO_ASSERT_TRUE(all.as_array().size() == 10000u);
    bool in_order = true;
    for (int i = 0; i < 10000; ++i) in_order = in_order && all.at(i).as_string() == std::to_string(i);
    EXPECT_TRUE(in_order);
  });
}

TEST_F(RedisClient, ASentCommandThatFailsIsLoggedNotThrown) {
  std::mutex mutex;
  std::vector<std::string> failures;  // command: error, of each failed command logged
  mcp::set_sdk_log_sink([&](const mcp::log_record& r) {
    const auto* command = r.field("command");
    const auto* error = r.field("error");
    if (!command || !error) return;
    std::lock_guard lock(mutex);
    failures.push_back(std::string(command->text) + ": " + std::string(error->text));
  });
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    c->send({"SET", "word", "hello"});
    c->send({"INCR", "word"});
    // Replies come in order: once this one is in, the INCR's has been seen.
    auto word = co_await c->command("GET", "word");
    EXPECT_EQ(word.as_string(), "hello");
  });
  mcp::set_sdk_log_sink({});
  std::lock_guard lock(mutex);
  const auto logged = std::count_if(failures.begin(), failures.end(), [](const std::string& failure) {
    return failure.starts_with("INCR: ERR value is not an integer");
  });
  EXPECT_EQ(logged, 1);
}

TEST_F(RedisClient, ManyCoroutinesOnFourThreadsEachGetTheirOwnReplies) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    constexpr int workers = 32, each = 200;
    std::atomic<int> wrong{0}, off_executor{0}, done{0}, failed{0};
    for (int w = 0; w < workers; ++w) {
      // Each on a strand of its own: its replies must resume it there.
      auto strand = asio::make_strand(io);
      asio::co_spawn(
          strand,
          [&, w, strand]() -> asio::awaitable<void> {
            for (int i = 0; i < each; ++i) {
              const auto mine = "worker " + std::to_string(w) + " call " + std::to_string(i);
              auto r = co_await c->command("ECHO", mine);
              if (!strand.running_in_this_thread()) ++off_executor;
              if (r.as_string() != mine) ++wrong;
              if (i % 50 == 0) {
                const std::vector<std::vector<std::string>> two{{"INCR", "total"}, {"ECHO", mine}};
                auto both = co_await c->pipeline(two);
                if (both.at(1).as_string() != mine) ++wrong;
              }
            }
          },
          [&](std::exception_ptr e) {
            if (e) ++failed;
            ++done;
          });
    }
    auto all_done = [&] { return done == workers; };
    const bool finished = co_await eventually(all_done, 10s);
    EXPECT_TRUE(finished);
    EXPECT_EQ(failed, 0);
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(off_executor, 0);
    auto total = co_await c->command("GET", "total");
    EXPECT_EQ(total.as_string(), std::to_string(workers * each / 50));
  });
}

TEST_F(RedisClient, EvalFallsBackToEvalWhenRedisForgotTheScript) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    const redis::script add("return redis.call('INCRBY', KEYS[1], ARGV[1])");
    const std::vector<std::string> key{"sum"}, five{"5"}, seven{"7"}, none;
    EXPECT_EQ(add.sha1().size(), 40u);
    auto first = co_await c->eval(add, key, five);
    EXPECT_EQ(first.as_integer(), 5);
    // Redis names the script by the same SHA1.
    auto known = co_await c->command("SCRIPT", "EXISTS", add.sha1());
    EXPECT_EQ(known.at(0).as_integer(), 1);

    co_await c->command("SCRIPT", "FLUSH");
    auto reloaded = co_await c->eval(add, key, seven);
    EXPECT_EQ(reloaded.as_integer(), 12);
    auto cached = co_await c->eval(add, key, five);
    EXPECT_EQ(cached.as_integer(), 17);

    const redis::script broken("return redis.call('NO-SUCH-COMMAND')");
    auto error = co_await c->eval(broken, none, none);
    EXPECT_TRUE(error.is_error()) << error.describe();
  });
}

TEST_F(RedisClient, ASentEvalFindsItsScriptOnEveryLinkEvenAfterARestart) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    const redis::script append("return redis.call('RPUSH', KEYS[1], ARGV[1])");
    auto cfg = quick_config(*server);
    cfg.scripts = {append.source()};
    auto c = redis::connection::create(io.get_executor(), cfg);
    // Loaded in the greeting: the very first command finds it.
    for (int i = 0; i < 100; ++i) c->send_eval(append, {"list"}, {std::to_string(i)});
    auto all = co_await c->command("LRANGE", "list", 0, -1);
    CO_ASSERT_TRUE(all.as_array().size() == 100u);
    EXPECT_EQ(all.at(99).as_string(), "99");

    // A restarted Redis knows no script; the new link loads it again.
    server->restart();
    const auto recovered = co_await time_to_recover(*c, 5s);
    CO_ASSERT_TRUE(recovered);
    co_await c->command("DEL", "list");
    c->send_eval(append, {"list"}, {"after"});
    auto after = co_await c->command("LRANGE", "list", 0, -1);
    CO_ASSERT_TRUE(after.as_array().size() == 1u);
    EXPECT_EQ(after.at(0).as_string(), "after");
  });
}

TEST_F(RedisClient, SubscriberGetsMessagesInPublishOrder) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto c = redis::connection::create(io.get_executor(), redis::config::from_url(server->url()));
    subscriber_inbox received;
    auto s = redis::subscriber::create(io.get_executor(), redis::config::from_url(server->url()), received.handler());
    co_await s->subscribe("news");
    co_await s->psubscribe("sessions.*");
    for (int i = 0; i < 500; ++i) c->send({"PUBLISH", "news", "item " + std::to_string(i)});
    auto heard = co_await c->command("PUBLISH", "sessions.42", "hello");
    EXPECT_EQ(heard.as_integer(), 1);
    auto unheard = co_await c->command("PUBLISH", "elsewhere", "unheard");
    EXPECT_EQ(unheard.as_integer(), 0);
    auto all_501 = [&] { return received.size() == 501; };
    const bool all_in = co_await eventually(all_501);
    EXPECT_TRUE(all_in);
    auto messages = received.copy();
    CO_ASSERT_TRUE(messages.size() == 501u);
    for (int i = 0; i < 500; ++i) {
      EXPECT_EQ(messages[i].first, "news");
      EXPECT_EQ(messages[i].second, "item " + std::to_string(i));
    }
    EXPECT_EQ(messages[500], std::make_pair(std::string("sessions.42"), std::string("hello")));

    co_await s->unsubscribe("news");
    auto late = co_await c->command("PUBLISH", "news", "too late");
    EXPECT_EQ(late.as_integer(), 0);
    co_await s->punsubscribe("sessions.*");
    auto late_too = co_await c->command("PUBLISH", "sessions.1", "too late");
    EXPECT_EQ(late_too.as_integer(), 0);

    // Once close() has returned, no handler runs.
    co_await s->subscribe("last");
    s->close();
    const auto before = received.size();
    co_await c->command("PUBLISH", "last", "after close");
    co_await sleep_for(100ms);
    EXPECT_EQ(received.size(), before);
  });
}

TEST_F(RedisClient, SubscriberSubscribesAgainAfterRedisRestarts) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto cfg = quick_config(*server);
    auto c = redis::connection::create(io.get_executor(), cfg);
    subscriber_inbox received;
    auto s = redis::subscriber::create(io.get_executor(), cfg, received.handler(), [&] { ++received.reconnects; });
    co_await s->subscribe("bus");
    co_await s->psubscribe("node.*");
    auto before = co_await c->command("PUBLISH", "bus", "before");
    EXPECT_EQ(before.as_integer(), 1);
    // Pub/sub delivers at most once: a message still on its way when Redis
    // dies is lost. This one must be in before the crash.
    auto first_in = [&] { return received.size() == 1; };
    const bool delivered = co_await eventually(first_in);
    EXPECT_TRUE(delivered);

    server->restart();
    auto reconnected = [&] { return received.reconnects == 1; };
    const bool told = co_await eventually(reconnected);
    EXPECT_TRUE(told) << "on_reconnect did not run after Redis came back";
    // The publisher is back too, by itself; both subscriptions are back.
    const auto recovered = co_await time_to_recover(*c, 5s);
    EXPECT_TRUE(recovered);
    auto after = co_await c->command("PUBLISH", "bus", "after");
    EXPECT_EQ(after.as_integer(), 1);
    auto to_b = co_await c->command("PUBLISH", "node.b", "to b");
    EXPECT_EQ(to_b.as_integer(), 1);
    auto all_3 = [&] { return received.size() == 3; };
    const bool all_in = co_await eventually(all_3);
    EXPECT_TRUE(all_in);
    auto messages = received.copy();
    CO_ASSERT_TRUE(messages.size() == 3u);
    EXPECT_EQ(messages[0].second, "before");
    EXPECT_EQ(messages[1].second, "after");
    EXPECT_EQ(messages[2], std::make_pair(std::string("node.b"), std::string("to b")));
    EXPECT_EQ(received.reconnects, 1);
  });
}

TEST_F(RedisClient, SubscriberNoticesAFrozenRedisByItsPingsAndComesBack) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto cfg = quick_config(*server);
    cfg.health_interval = 100ms;
    auto c = redis::connection::create(io.get_executor(), cfg);
    subscriber_inbox received;
    auto s = redis::subscriber::create(io.get_executor(), cfg, received.handler(), [&] { ++received.reconnects; });
    co_await s->subscribe("bus");

    // Nothing is published meanwhile: only the subscriber's own PING can
    // tell that Redis stopped answering.
    server->kill(SIGSTOP);
    auto noticed = [&] { return !s->connected(); };
    const bool dropped = co_await eventually(noticed, 3s);
    server->kill(SIGCONT);
    EXPECT_TRUE(dropped) << "the subscriber did not notice that Redis was frozen";

    auto reconnected = [&] { return received.reconnects == 1; };
    const bool told = co_await eventually(reconnected);
    EXPECT_TRUE(told) << "on_reconnect did not run after Redis thawed";
    auto heard = co_await c->command("PUBLISH", "bus", "thawed");
    EXPECT_EQ(heard.as_integer(), 1);
    auto one_in = [&] { return received.size() == 1; };
    const bool in = co_await eventually(one_in);
    EXPECT_TRUE(in);
  });
}

TEST_F(RedisClient, AFrozenRedisFailsCommandsAtTheirDeadlineAndServiceComesBack) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto cfg = quick_config(*server);
    auto c = redis::connection::create(io.get_executor(), cfg);
    co_await c->command("SET", "k", "v");

    server->kill(SIGSTOP);
    const auto start = clock_type::now();
    auto failure = co_await unavailable_from(c->command("GET", "k"));
    const auto waited = clock_type::now() - start;
    CO_ASSERT_TRUE(failure);
    EXPECT_EQ(failure->reason(), redis::unavailable_reason::timed_out) << failure->what();
    EXPECT_NE(std::string(failure->what()).find("no reply within 500 ms"), std::string::npos) << failure->what();
    EXPECT_GE(waited, 450ms);
    EXPECT_LT(waited, 2s);
    // While it stays frozen, commands keep failing in bounded time.
    auto again = co_await unavailable_from(c->command("GET", "k"));
    EXPECT_TRUE(again);
    EXPECT_LT(clock_type::now() - start, 3s);

    server->kill(SIGCONT);
    const auto recovered = co_await time_to_recover(*c, 5s);
    EXPECT_TRUE(recovered) << "no service within 5 s of SIGCONT";
    auto k = co_await c->command("GET", "k");
    EXPECT_EQ(k.as_string(), "v");
  });
}

TEST_F(RedisClient, AKilledRedisFailsCommandsFastAndServiceComesBackAfterRestart) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto cfg = quick_config(*server);
    auto c = redis::connection::create(io.get_executor(), cfg);
    co_await c->command("SET", "k", "v");

    server->kill(SIGKILL);
    co_await sleep_for(50ms);  // the connection sees the end of its socket
    for (int i = 0; i < 5; ++i) {
      const auto start = clock_type::now();
      auto failure = co_await unavailable_from(c->command("GET", "k"));
      CO_ASSERT_TRUE(failure);
      EXPECT_TRUE(failure->reason() == redis::unavailable_reason::not_connected ||
                  failure->reason() == redis::unavailable_reason::connection_lost)
          << failure->what();
      EXPECT_LT(clock_type::now() - start, 200ms) << "a command waited for a Redis known to be away";
      c->send({"SET", "lost", "x"});  // logged, not thrown
      co_await sleep_for(20ms);
    }
    EXPECT_FALSE(c->connected());

    server->restart();
    const auto recovered = co_await time_to_recover(*c, 3s);
    CO_ASSERT_TRUE(recovered);
    // The longest wait between attempts is 400 ms (jitter makes it shorter).
    EXPECT_LT(*recovered, 1000ms);
    EXPECT_TRUE(c->connected());
  });
}

TEST_F(RedisClient, CloseFailsWhatWaitsAndLeavesNothingRunning) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto cfg = quick_config(*server);
    cfg.command_timeout = 10s;  // only close() ends the wait
    auto c = redis::connection::create(io.get_executor(), cfg);
    co_await c->command("PING");
    server->kill(SIGSTOP);
    std::promise<std::optional<redis::unavailable>> outcome;
    auto waited = outcome.get_future();
    asio::co_spawn(io, unavailable_from(c->command("GET", "k")),
                   [&](std::exception_ptr, std::optional<redis::unavailable> u) { outcome.set_value(u); });
    co_await sleep_for(100ms);
    c->close();
    auto command_ended = [&] { return waited.wait_for(0s) == std::future_status::ready; };
    const bool ended = co_await eventually(command_ended, 2s);
    server->kill(SIGCONT);
    CO_ASSERT_TRUE(ended);
    auto failure = waited.get();
    CO_ASSERT_TRUE(failure);
    EXPECT_EQ(failure->reason(), redis::unavailable_reason::closed);
    auto later = co_await unavailable_from(c->command("PING"));
    CO_ASSERT_TRUE(later);
    EXPECT_EQ(later->reason(), redis::unavailable_reason::closed);
  });  // run_on_threads checks that the io_context then runs out of work
}

TEST_F(RedisClient, ConnectionsDieCleanlyWithTheirIoContextStopped) {
  asio::io_context io;
  auto cfg = quick_config(*server);
  auto c = redis::connection::create(io.get_executor(), cfg);
  auto s = redis::subscriber::create(io.get_executor(), cfg, [](std::string_view, std::string_view) {});
  std::optional<redis::reply> pong;
  asio::co_spawn(io, c->command("PING"), [&](std::exception_ptr, redis::reply r) {
    pong = std::move(r);
    io.stop();  // with the links still open
  });
  io.run_for(5s);
  EXPECT_TRUE(pong && pong->is_status_equal("PONG"));
  c.reset();
  s.reset();
  // The io_context goes with the work they left queued (AddressSanitizer
  // checks that nothing leaks or is used after it is freed).
}

TEST_F(RedisClient, TooManyCommandsInFlightFailAtOnce) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto cfg = quick_config(*server);
    cfg.max_in_flight = 10;
    auto c = redis::connection::create(io.get_executor(), cfg);
    const std::vector<std::vector<std::string>> ten(10, std::vector<std::string>{"PING"});
    auto eleven = ten;
    eleven.push_back({"PING"});
    auto failure = co_await unavailable_from(c->pipeline(eleven));
    CO_ASSERT_TRUE(failure);
    EXPECT_EQ(failure->reason(), redis::unavailable_reason::overloaded);
    auto replies = co_await c->pipeline(ten);
    EXPECT_EQ(replies.size(), 10u);
  });
}

TEST(RedisUrl, NamesTheServerTheCredentialsAndTheDatabase) {
  auto plain = redis::config::from_url("redis://cache.internal");
  EXPECT_EQ(plain.host, "cache.internal");
  EXPECT_EQ(plain.port, 6379);
  EXPECT_EQ(plain.database, 0);
  EXPECT_FALSE(plain.password);

  auto full = redis::config::from_url("redis://alice:s%40cret@10.0.0.7:6380/3");
  EXPECT_EQ(full.host, "10.0.0.7");
  EXPECT_EQ(full.port, 6380);
  EXPECT_EQ(full.user, "alice");
  EXPECT_EQ(full.password, "s@cret");
  EXPECT_EQ(full.database, 3);

  auto password_only = redis::config::from_url("redis://:secret@localhost/");
  EXPECT_EQ(password_only.user, "");
  EXPECT_EQ(password_only.password, "secret");
  EXPECT_EQ(password_only.database, 0);

  auto ipv6 = redis::config::from_url("redis://[::1]:7000");
  EXPECT_EQ(ipv6.host, "::1");
  EXPECT_EQ(ipv6.endpoint(), "[::1]:7000");
}

TEST(RedisUrl, RejectsWhatIsNotARedisUrlAndSaysWhy) {
  auto why = [](const std::string& url) -> std::string {
    try {
      redis::config::from_url(url);
    } catch (const mcp::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_NE(why("http://host").find("the scheme must be redis"), std::string::npos);
  EXPECT_NE(why("rediss://host").find("TLS"), std::string::npos);
  EXPECT_NE(why("redis://").find("no host"), std::string::npos);
  EXPECT_NE(why("redis://host:0").find("port"), std::string::npos);
  EXPECT_NE(why("redis://host:70000").find("port"), std::string::npos);
  EXPECT_NE(why("redis://host/cache").find("database number"), std::string::npos);
  EXPECT_NE(why("redis://host/1/2").find("database number"), std::string::npos);
  EXPECT_NE(why("redis://host/-1").find("database number"), std::string::npos);
  EXPECT_NE(why("redis://alice@host").find("needs a password"), std::string::npos);
  EXPECT_NE(why("redis://host?db=2").find("query"), std::string::npos);
  EXPECT_NE(why("not a url at all").find("not a URL"), std::string::npos);
  // The message names the URL and the form expected.
  EXPECT_NE(why("redis://host/cache").find("'redis://host/cache'"), std::string::npos);
  EXPECT_NE(why("redis://host/cache").find("redis://[[user]:password@]host[:port][/db]"), std::string::npos);
}

class RedisWithPassword : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!redis_server::available()) GTEST_SKIP() << redis_server::program << " is not installed";
    // The default user has a password; alice is a user of her own (ACL).
    server.emplace(std::vector<std::string>{"--requirepass", "hunter2", "--user", "alice", "on", ">wonderland", "~*",
                                            "&*", "+@all"});
  }
  std::string url(const std::string& credentials, int db) const {
    return "redis://" + credentials + "@127.0.0.1:" + std::to_string(server->port()) + "/" + std::to_string(db);
  }
  std::optional<redis_server> server;
};

TEST_F(RedisWithPassword, AuthAndSelectComeFromTheUrl) {
  run_on_threads([&](asio::io_context& io) -> asio::awaitable<void> {
    auto on_3 = redis::connection::create(io.get_executor(), redis::config::from_url(url(":hunter2", 3)));
    auto on_0 = redis::connection::create(io.get_executor(), redis::config::from_url(url(":hunter2", 0)));
    auto alice_on_3 = redis::connection::create(io.get_executor(), redis::config::from_url(url("alice:wonderland", 3)));
    co_await on_3->command("SET", "where", "db 3");
    auto on_db_0 = co_await on_0->command("GET", "where");
    EXPECT_TRUE(on_db_0.is_nil()) << "SELECT 3 was not applied: " << on_db_0.describe();
    auto on_db_3 = co_await alice_on_3->command("GET", "where");
    EXPECT_EQ(on_db_3.as_string(), "db 3");
    auto who = co_await alice_on_3->command("ACL", "WHOAMI");
    EXPECT_EQ(who.as_string(), "alice");

    auto wrong = redis::connection::create(io.get_executor(), redis::config::from_url(url(":wrong", 0)));
    auto failure = co_await unavailable_from(wrong->command("PING"));
    CO_ASSERT_TRUE(failure);
    EXPECT_EQ(failure->reason(), redis::unavailable_reason::not_connected);
    EXPECT_NE(std::string(failure->what()).find("AUTH failed: WRONGPASS"), std::string::npos) << failure->what();
    // The reason stays in the message of the commands refused meanwhile.
    auto refused = co_await unavailable_from(wrong->command("PING"));
    CO_ASSERT_TRUE(refused);
    EXPECT_NE(std::string(refused->what()).find("WRONGPASS"), std::string::npos) << refused->what();

    auto anonymous = redis::connection::create(
        io.get_executor(), redis::config::from_url("redis://127.0.0.1:" + std::to_string(server->port())));
    auto refused_anonymous = co_await unavailable_from(anonymous->command("PING"));
    CO_ASSERT_TRUE(refused_anonymous);
    EXPECT_NE(std::string(refused_anonymous->what()).find("NOAUTH"), std::string::npos) << refused_anonymous->what();
  });
}

}  // namespace
