// How our client's calls behave against a server we did not write, over
// every transport: progress keeps a slow call alive past its timeout, a
// silent one times out (the server is told to cancel it and the session goes
// on), and calls in flight together each get their own progress.

#include "everything_fixture.hpp"

#include <boost/asio/experimental/awaitable_operators.hpp>

namespace mcp::test {
namespace {

class EverythingCalls : public everything_test {};

/// trigger-long-running-operation taking `seconds` in `steps` steps.
json::object long_operation(double seconds, int steps) { return {{"duration", seconds}, {"steps", steps}}; }

TEST_P(EverythingCalls, ProgressKeepsASlowCallAlive) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    // 1 s in all, a progress notification every 0.2 s, a 0.5 s timeout.
    int updates = 0;
    call_options options;
    options.timeout = 500ms;
    options.on_progress = [&](const progress_update&) { ++updates; };
    const auto args = long_operation(1, 5);
    const auto result = co_await c.call_tool("trigger-long-running-operation", args, options);
    EXPECT_EQ(first_text(result), "Long running operation completed. Duration: 1 seconds, Steps: 5.");
    EXPECT_EQ(updates, 5);
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingCalls, SilentCallTimesOutAndTheSessionGoesOn) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    // One step of 0.8 s: no progress before the 0.3 s timeout.
    call_options options;
    options.timeout = 300ms;
    options.on_progress = [](const progress_update&) {};
    const auto args = long_operation(0.8, 1);
    boost::system::error_code error;
    try {
      co_await c.call_tool("trigger-long-running-operation", args, options);
    } catch (const boost::system::system_error& e) {
      error = e.code();
    }
    EXPECT_EQ(error, asio::error::timed_out) << error.message();

    json::object message{{"message", "still here"}};
    const auto echo = co_await c.call_tool("echo", message);
    EXPECT_EQ(first_text(echo), "Echo: still here");
    co_await sleep_for(600ms);  // past the end of the cancelled call: the session is still fine
    co_await c.ping();
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingCalls, CallsInFlightTogetherGetTheirOwnProgress) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto run = [&](int steps, std::vector<double>& progress) -> asio::awaitable<std::string> {
      call_options options;
      options.on_progress = [&progress](const progress_update& p) { progress.push_back(p.progress); };
      const auto args = long_operation(0.6, steps);
      const auto result = co_await c.call_tool("trigger-long-running-operation", args, options);
      co_return first_text(result);
    };
    std::vector<double> two, three;
    using namespace asio::experimental::awaitable_operators;
    const auto [first, second] = co_await (run(2, two) && run(3, three));
    EXPECT_EQ(first, "Long running operation completed. Duration: 0.6 seconds, Steps: 2.");
    EXPECT_EQ(second, "Long running operation completed. Duration: 0.6 seconds, Steps: 3.");
    EXPECT_EQ(two, (std::vector<double>{1, 2}));
    EXPECT_EQ(three, (std::vector<double>{1, 2, 3}));
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingCalls, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
