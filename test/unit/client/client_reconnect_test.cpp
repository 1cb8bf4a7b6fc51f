// A client connected through a transport factory reconnects by itself, and
// the client_pool built on that: our server on the far end of memory pairs
// the factory makes, and connections the test cuts.

#include <mcp/client/client.hpp>
#include <mcp/client/pool.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "echo_reply.hpp"
#include "legacy_client.hpp"
#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>

#include <map>
#include <set>

namespace mcp::test {
namespace {

using namespace asio::experimental::awaitable_operators;

// Serves one server on every connection the factory makes; the test can cut
// the newest one, or make the factory fail.
class reconnecting_server {
 public:
  explicit reconnecting_server(asio::any_io_executor ex) : ex_(ex), srv_({"reconnect", "1.0"}) {
    tool_info echo;
    echo.name = "echo";
    srv_.add_tool(echo, [](const json::object& args, request_context&) -> asio::awaitable<call_tool_result> {
      co_return call_tool_result::text(std::string(args.at("text").as_string()));
    });
    tool_info whoami;
    whoami.name = "whoami";
    srv_.add_tool(whoami, [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
      co_return call_tool_result::text(ctx.session().id());
    });
    tool_info hang;
    hang.name = "hang";  // answers long after the test cut its connection
    srv_.add_tool(hang, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
      co_await sleep_for(std::chrono::milliseconds(300));
      co_return call_tool_result::text("late");
    });
    resource_info info;
    info.uri = "test://r";
    info.name = "r";
    srv_.add_resource(info, [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
      co_return std::vector{resource_contents::from_text(uri, "r")};
    });
  }

  transport_factory factory() {
    return [this]() -> asio::awaitable<std::unique_ptr<message_transport>> {
      ++connections;
      if (refuse || connections == refuse_connection) throw boost::system::system_error(asio::error::connection_refused, "test factory");
      auto [client_end, server_end] = make_memory_pair(ex_);
      ends_.push_back(std::move(server_end));
      ++serving_;
      asio::co_spawn(ex_, serve(srv_, *ends_.back()), [this](std::exception_ptr) { --serving_; });
      co_return std::move(client_end);
    };
  }

  /// Ends the newest connection from the server's side, or the one made `index`-th.
  asio::awaitable<void> cut() { co_await ends_.back()->close(); }
  asio::awaitable<void> cut(std::size_t index) { co_await ends_.at(index)->close(); }

  asio::awaitable<void> stop() {
    for (auto& end : ends_) co_await end->close();
    while (serving_ > 0) co_await sleep_for(std::chrono::milliseconds(5));
  }

  mcp::server& server() { return srv_; }
  int connections = 0;
  bool refuse = false;
  int refuse_connection = 0;  ///< the n-th connection (from 1) fails

 private:
  asio::any_io_executor ex_;
  mcp::server srv_;
  std::vector<std::unique_ptr<message_transport>> ends_;
  int serving_ = 0;
};

client_options quick_reconnects() {
  client_options options;
  options.reconnect.initial_delay = std::chrono::milliseconds(10);
  options.reconnect.max_delay = std::chrono::milliseconds(40);
  options.reconnect.max_attempts = 3;
  return options;
}

asio::awaitable<void> wait_for_state(mcp::client& c, connection_state wanted) {
  for (int i = 0; i < 400 && c.state() != wanted; ++i) co_await sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(c.state(), wanted);
}

TEST(ClientReconnect, ACutConnectionIsReplacedAndCallsGoOn) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    mcp::client c(ex, quick_reconnects());
    std::vector<connection_state> states;
    c.on_state_change([&](connection_state s) { states.push_back(s); });
    co_await c.connect(server.factory());
    EXPECT_EQ(co_await echo_reply(c, "one"), "one");

    // A call waiting when the connection drops fails: the server may have run it.
    auto waiting = [&]() -> asio::awaitable<bool> {
      json::object none;
      co_return co_await failure_of(c.call_tool("hang", none)) == asio::error::connection_aborted;
    };
    auto cut = [&]() -> asio::awaitable<void> {
      co_await sleep_for(std::chrono::milliseconds(20));
      co_await server.cut();
    };
    const auto aborted = co_await (waiting() && cut());
    EXPECT_TRUE(aborted);
    // A call made while it reconnects waits for the new connection.
    EXPECT_EQ(co_await echo_reply(c, "two"), "two");
    EXPECT_EQ(server.connections, 2);
    EXPECT_EQ(states, (std::vector<connection_state>{
                          connection_state::connecting, connection_state::initializing, connection_state::ready,
                          connection_state::connecting, connection_state::initializing, connection_state::ready}));
    co_await c.close();
    co_await server.stop();
  });
}

TEST(ClientReconnect, TheNewSessionGetsTheSubscriptionsAgain) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    mcp::client c(ex, quick_reconnects());
    std::vector<std::string> updated;
    c.on_resource_updated([&](const std::string& uri) { updated.push_back(uri); });
    co_await c.connect(server.factory());
    co_await c.subscribe("test://r");
    co_await server.cut();
    co_await wait_for_state(c, connection_state::connecting);
    co_await wait_for_state(c, connection_state::ready);
    co_await c.ping();  // the subscription went before `ready`; the server has it
    server.server().notify_resource_updated("test://r");
    for (int i = 0; i < 200 && updated.empty(); ++i) co_await sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(updated, std::vector<std::string>{"test://r"});
    co_await c.close();
    co_await server.stop();
  });
}

TEST(ClientReconnect, GivesUpAfterItsAttemptsAndSaysNotConnected) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    mcp::client c(ex, quick_reconnects());
    co_await c.connect(server.factory());
    server.refuse = true;
    co_await server.cut();
    co_await wait_for_state(c, connection_state::disconnected);
    EXPECT_EQ(server.connections, 1 + 3);
    EXPECT_EQ(co_await failure_of(c.ping()), asio::error::not_connected);
    co_await c.close();
    co_await server.stop();
  });
}

TEST(ClientReconnect, ACallWaitingForTheReconnectionTimesOut) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    auto options = quick_reconnects();
    options.reconnect.initial_delay = std::chrono::seconds(5);  // longer than the call may wait
    mcp::client c(ex, options);
    co_await c.connect(server.factory());
    co_await server.cut();
    co_await wait_for_state(c, connection_state::connecting);
    call_options quick;
    quick.timeout = std::chrono::milliseconds(50);
    EXPECT_EQ(co_await failure_of(c.ping(quick)), asio::error::timed_out);
    // close() during the pause is prompt and final.
    const auto before = std::chrono::steady_clock::now();
    co_await c.close();
    EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(1));
    EXPECT_EQ(c.state(), connection_state::disconnected);
    co_await sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(server.connections, 1);
    co_await server.stop();
  });
}

TEST(ClientReconnect, WithoutAFactoryTheEndIsTheEnd) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    mcp::client c(ex, quick_reconnects());
    auto transport = co_await server.factory()();
    co_await c.connect(std::move(transport));
    co_await server.cut();
    co_await wait_for_state(c, connection_state::disconnected);
    EXPECT_EQ(server.connections, 1);
    co_await c.close();
    co_await server.stop();
  });
}

pool_options pool_of(std::size_t size) {
  pool_options options;
  options.size = size;
  // A legacy session per connection: the calls name the session they reach.
  options.client = legacy_only(quick_reconnects());
  return options;
}

asio::awaitable<std::string> whoami(mcp::client& c) {
  json::object none;
  auto result = co_await c.call_tool("whoami", none);
  co_return result.text_content();
}

TEST(ClientPool, CallsGoRoundRobin) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    client_pool pool(ex, server.factory(), pool_of(3));
    co_await pool.connect();
    EXPECT_EQ(pool.ready(), 3u);
    std::map<std::string, int> calls_per_session;
    for (int i = 0; i < 9; ++i) ++calls_per_session[co_await whoami(pool.next())];
    EXPECT_EQ(calls_per_session.size(), 3u);
    for (const auto& [session, calls] : calls_per_session) EXPECT_EQ(calls, 3) << session;
    co_await pool.close();
    co_await server.stop();
  });
}

TEST(ClientPool, AConnectionThatEndsIsReplacedWhileTheOthersServe) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    client_pool pool(ex, server.factory(), pool_of(3));
    co_await pool.connect();
    // A long call on each connection; the second connection is cut under its call.
    std::vector<std::string> outcomes(3);
    auto long_call = [&](std::size_t i) -> asio::awaitable<void> {
      try {
        json::object none;
        auto result = co_await pool.next().call_tool("hang", none);
        outcomes[i] = result.text_content();
      } catch (const boost::system::system_error& e) {
        outcomes[i] = e.code() == asio::error::connection_aborted ? "aborted" : e.what();
      }
    };
    auto cut_second = [&]() -> asio::awaitable<void> {
      co_await sleep_for(std::chrono::milliseconds(20));
      co_await server.cut(1);
    };
    co_await (long_call(0) && long_call(1) && long_call(2) && cut_second());
    EXPECT_EQ(outcomes, (std::vector<std::string>{"late", "aborted", "late"}));
    // Calls made while it comes back go to the others; then all three serve again.
    for (int i = 0; i < 4; ++i) EXPECT_FALSE((co_await whoami(pool.next())).empty());
    for (int i = 0; i < 400 && pool.ready() < 3; ++i) co_await sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(pool.ready(), 3u);
    EXPECT_EQ(server.connections, 4);
    std::set<std::string> sessions;
    for (int i = 0; i < 3; ++i) sessions.insert(co_await whoami(pool.next()));
    EXPECT_EQ(sessions.size(), 3u);
    co_await pool.close();
    co_await server.stop();
  });
}

TEST(ClientPool, AConnectionThatFailsAtFirstJoinsLater) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    server.refuse_connection = 2;
    client_pool pool(ex, server.factory(), pool_of(3));
    co_await pool.connect();
    EXPECT_EQ(pool.ready(), 2u);
    for (int i = 0; i < 400 && pool.ready() < 3; ++i) co_await sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(pool.ready(), 3u);
    co_await pool.close();
    EXPECT_EQ(pool.ready(), 0u);
    co_await server.stop();
  });
}

TEST(ClientPool, DestroyedWithoutCloseItsPausedReconnectionEnds) {
  asio::io_context io;
  int connections = 0;
  std::exception_ptr failure;
  asio::co_spawn(io, [&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    // The first connection is made; every other is refused: the second
    // member's attempt, at once again, then after a minute's pause.
    transport_factory first_only = [&server, make = server.factory()] {
      server.refuse = server.connections > 0;
      return make();
    };
    auto options = pool_of(2);
    options.client.reconnect.initial_delay = std::chrono::minutes(1);
    options.client.reconnect.max_delay = std::chrono::minutes(1);
    {
      client_pool pool(ex, first_only, options);
      co_await pool.connect();
      EXPECT_EQ(pool.ready(), 1u);
      for (int i = 0; i < 400 && server.connections < 3; ++i) co_await sleep_for(std::chrono::milliseconds(5));
    }
    co_await server.stop();
    connections = server.connections;
  }, [&](std::exception_ptr e) { failure = e; });
  io.run_for(std::chrono::seconds(20));
  EXPECT_TRUE(io.stopped()) << "the pool's reconnection kept the io_context running";
  EXPECT_FALSE(failure);
  EXPECT_EQ(connections, 3);
}

TEST(ClientPool, NoServerMeansConnectFails) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    reconnecting_server server(ex);
    server.refuse = true;
    client_pool pool(ex, server.factory(), pool_of(2));
    EXPECT_EQ(co_await failure_of(pool.connect()), asio::error::connection_refused);
    co_await pool.close();
  });
}

}  // namespace
}  // namespace mcp::test
