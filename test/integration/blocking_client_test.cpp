// mcp::blocking_client against everything-server over stdio: calls from
// plain threads, several at once, each with a deadline; the server's
// sampling and elicitation answered later, from another thread. And both
// sides in a program without an event loop: a background_http_server and a
// blocking_client in one plain function.

#include <mcp/client/blocking_client.hpp>
#include <mcp/error.hpp>
#include <mcp/server/background_http_server.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http_client.hpp>
#include <mcp/transport/process.hpp>

#include "child_process.hpp"
#include "test_support.hpp"

#include <atomic>
#include <future>
#include <thread>
#include <vector>

namespace mcp::test {
namespace {

mcp::process_options everything() {
  auto command = bin_command("everything-server");
  command.args.push_back("--stdio");
  return command;
}

TEST(BlockingClient, CallsFromSeveralThreadsAtOnce) {
  mcp::blocking_client c;
  const auto server = c.connect(mcp::spawn_process(c.get_executor(), everything()));
  EXPECT_EQ(server.server_info.name, "everything-server");
  EXPECT_EQ(c.state(), connection_state::ready);
  std::vector<std::thread> callers;
  std::atomic<int> right{0};
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int i = 0; i < 10; ++i) {
        const auto text = std::to_string(t) + "-" + std::to_string(i);
        if (c.call_tool("echo", {{"text", text}}).text_content() == text) ++right;
      }
    });
  for (auto& caller : callers) caller.join();
  EXPECT_EQ(right, 40);
  const auto tools = c.list_tools();
  EXPECT_TRUE(std::ranges::any_of(tools, [](const tool_info& t) { return t.name == "long_task"; }));
  c.close();
  EXPECT_EQ(c.state(), connection_state::disconnected);
}

TEST(BlockingClient, ACallPastItsDeadlineIsCancelledAndTheClientGoesOn) {
  blocking_client_options options;
  options.call_timeout = 300ms;
  mcp::blocking_client c(options);
  c.connect(mcp::spawn_process(c.get_executor(), everything()));
  try {
    c.call_tool("long_task", {{"steps", 20}, {"step_ms", 100}});
    ADD_FAILURE() << "no timeout";
  } catch (const mcp::error& e) {
    EXPECT_EQ(e.code(), asio::error::timed_out);
  }
  // The request's own timeout (the client's) works the same way.
  call_options quick;
  quick.timeout = 100ms;
  EXPECT_THROW(c.call_tool("long_task", {{"steps", 20}, {"step_ms", 100}}, quick), mcp::error);
  EXPECT_EQ(c.call_tool("echo", {{"text", "still here"}}).text_content(), "still here");
}

TEST(BlockingClient, SamplingIsAnsweredLaterFromAnotherThread) {
  mcp::blocking_client c;
  std::promise<std::pair<json::object, server_request_reply>> asked;
  c.on_sampling([&](json::object params, server_request_reply reply) {
    asked.set_value({std::move(params), std::move(reply)});  // answered below, on the test's thread
  });
  c.connect(mcp::spawn_process(c.get_executor(), everything()));
  auto call = std::async(std::launch::async, [&] { return c.call_tool("sample", {{"prompt", "hello"}}); });
  auto [params, reply] = asked.get_future().get();
  EXPECT_EQ(params.at("maxTokens"), 100);
  std::this_thread::sleep_for(50ms);  // a user thinking
  json::object answer{{"role", "assistant"},
                      {"content", {{"type", "text"}, {"text", "hi there"}}},
                      {"model", "test-model"}};
  EXPECT_TRUE(reply.result(answer));
  EXPECT_FALSE(reply.result(answer)) << "an answer is given once";
  EXPECT_EQ(call.get().text_content(), "LLM said: hi there");
}

TEST(BlockingClient, AReplyDroppedUnansweredFailsTheServersRequest) {
  mcp::blocking_client c;
  c.on_elicitation([](json::object, server_request_reply) {});  // the reply goes away unanswered
  c.connect(mcp::spawn_process(c.get_executor(), everything()));
  // The tool passes the error it got on to its caller.
  try {
    c.call_tool("confirm", {{"question", "sure?"}});
    ADD_FAILURE() << "no error";
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::internal_error);
    EXPECT_NE(std::string(e.what()).find("dropped"), std::string::npos) << e.what();
  }
}

TEST(BlockingClient, ACallbackThatCallsTheClientIsRefusedNotDeadlocked) {
  mcp::blocking_client c;
  std::string refused;
  c.on_sampling([&](json::object, server_request_reply reply) {
    try {
      c.ping();
    } catch (const mcp::invalid_argument& e) {
      refused = e.what();
    }
    reply.error(rpc_error{-1, "User rejected sampling request", nullptr});
  });
  c.connect(mcp::spawn_process(c.get_executor(), everything()));
  EXPECT_THROW(c.call_tool("sample", {{"prompt", "hello"}}), protocol_error);
  EXPECT_NE(refused.find("its own I/O thread"), std::string::npos) << refused;
}

TEST(BackgroundServer, AProgramWithoutAnEventLoopServesAndStopsCleanly) {
  mcp::server srv({"plain", "1.0"});
  srv.add_tool("hello", "Says hello", [] { return std::string("hello"); });
  mcp::background_http_server http(srv, {});
  ASSERT_NE(http.port(), 0);
  EXPECT_EQ(http.url(), "http://127.0.0.1:" + std::to_string(http.port()) + "/mcp");
  {
    mcp::blocking_client c;
    c.connect([ex = c.get_executor(), url = http.url()] { return mcp::connect_http(ex, url); });
    EXPECT_EQ(c.server().server_info.name, "plain");
    EXPECT_EQ(c.call_tool("hello").text_content(), "hello");
  }
  http.stop();
  const auto result = http.wait();
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_FALSE(result.handlers_left_running);
}

}  // namespace
}  // namespace mcp::test
