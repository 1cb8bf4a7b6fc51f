// The client's completion-token forms (client::async_...) and its error
// model (mcp/error.hpp), against a scripted server on the other end of a
// memory pair: the test plays the server frame by frame.

#include <mcp/client/client.hpp>
#include <mcp/error.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/transport/memory.hpp>

#include "legacy_client.hpp"
#include "scripted_server.hpp"
#include "test_support.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/deferred.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/use_future.hpp>

#include <future>
#include <thread>

namespace mcp::test {
namespace {

using namespace asio::experimental::awaitable_operators;

// A client connected to a scripted 2025-11-25 server.
asio::awaitable<connected_pair> connect_scripted() {
  auto ex = co_await asio::this_coro::executor;
  auto [client_end, server_end] = make_memory_pair(ex);
  connected_pair s{std::move(server_end), std::make_unique<mcp::client>(ex, legacy_only())};
  // The connection itself through a completion token too: deferred, awaited.
  auto connecting = s.client->async_connect(std::move(client_end), asio::deferred);
  co_await (accept_initialize(*s.server) && std::move(connecting)(asio::use_awaitable));
  co_return s;
}

// Reads the next request and answers it with `result`; returns the request.
asio::awaitable<json::value> answer_next(message_transport& server, json::object result) {
  auto request = co_await read_json(server);
  co_await reply_result(server, request.at("id"), std::move(result));
  co_return request;
}

json::object echo_result(std::string text) {
  return json::object{{"content", json::array{{{"type", "text"}, {"text", std::move(text)}}}}};
}

TEST(ClientAsync, ACallbackGetsTheResultOnTheClientsExecutor) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    std::optional<call_tool_result> got;
    std::exception_ptr failure;
    bool on_executor = false;
    auto ex = s.client->get_executor();
    json::object args{{"text", "hi"}};
    s.client->async_call_tool("echo", std::move(args), [&](std::exception_ptr e, call_tool_result r) {
      failure = e;
      got = std::move(r);
      on_executor = ex.target<asio::io_context::executor_type>()->running_in_this_thread();
    });
    EXPECT_FALSE(got) << "a completion never runs inside the initiating call";
    auto request = co_await answer_next(*s.server, echo_result("hi"));
    EXPECT_EQ(request.at("method"), "tools/call");
    EXPECT_EQ(request.at("params").at("name"), "echo");
    for (int i = 0; i < 100 && !got; ++i) co_await sleep_for(5ms);
    CO_ASSERT_TRUE(got);
    EXPECT_FALSE(failure);
    EXPECT_EQ(got->text_content(), "hi");
    EXPECT_TRUE(on_executor);
  });
}

TEST(ClientAsync, AFutureIsWaitedForOnAnotherThread) {
  asio::io_context io;
  auto work = asio::make_work_guard(io);
  std::thread runner([&] { io.run(); });
  std::promise<connected_pair> connected;
  asio::co_spawn(io, connect_scripted(), [&](std::exception_ptr e, connected_pair s) {
    if (e) connected.set_exception(e);
    else connected.set_value(std::move(s));
  });
  auto s = connected.get_future().get();
  // Initiated from this thread; the operation starts on the client's.
  std::future<std::vector<tool_info>> tools = s.client->async_list_tools(asio::use_future);
  json::object listed{{"tools", json::array{{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}}}};
  asio::co_spawn(io, answer_next(*s.server, listed), asio::detached);
  ASSERT_EQ(tools.wait_for(5s), std::future_status::ready);
  const auto got = tools.get();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].name, "echo");
  asio::post(io, [&] { s = {}; });  // the client and the transports go on their thread
  work.reset();
  runner.join();
}

TEST(ClientAsync, AsTupleAndTheTypedForms) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    auto served = [&]() -> asio::awaitable<void> {
      json::object pong;
      co_await answer_next(*s.server, std::move(pong));
      json::object empty{{"tools", json::array{}}};
      co_await answer_next(*s.server, std::move(empty));
      json::object not_a_list{{"tools", 7}};
      co_await answer_next(*s.server, std::move(not_a_list));
    };
    auto calls = [&]() -> asio::awaitable<void> {
      auto [ping_failure] = co_await s.client->async_ping(asio::as_tuple(asio::use_awaitable));
      EXPECT_FALSE(ping_failure);
      paginated_params first;
      auto [typed_failure, page] =
          co_await s.client->async_request<method::tools_list>(std::move(first), asio::as_tuple(asio::use_awaitable));
      EXPECT_FALSE(typed_failure);
      EXPECT_TRUE(page.tools.empty());
      paginated_params again;
      auto [malformed, ignored] =
          co_await s.client->async_request<method::tools_list>(std::move(again), asio::as_tuple(asio::use_awaitable));
      CO_ASSERT_TRUE(malformed);
      try {
        std::rethrow_exception(malformed);
      } catch (const malformed_result& e) {
        EXPECT_EQ(e.method(), "tools/list");
        EXPECT_EQ(e.code(), boost::system::errc::bad_message);
      }
    };
    co_await (served() && calls());
  });
}

TEST(ClientAsync, ACancellationSlotCancelsTheRequestOnTheWire) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    asio::cancellation_signal cancel;
    std::exception_ptr failure;
    bool done = false;
    s.client->async_call_tool("slow", {}, asio::bind_cancellation_slot(cancel.slot(), [&](std::exception_ptr e, call_tool_result) {
                                failure = e;
                                done = true;
                              }));
    auto request = co_await read_json(*s.server);
    // partial: taken as terminal, the only kind a sent request has.
    cancel.emit(asio::cancellation_type::partial);
    auto notice = co_await read_json(*s.server);
    EXPECT_EQ(notice.at("method"), "notifications/cancelled");
    EXPECT_EQ(notice.at("params").at("requestId"), request.at("id"));
    for (int i = 0; i < 100 && !done; ++i) co_await sleep_for(5ms);
    CO_ASSERT_TRUE(done);
    try {
      std::rethrow_exception(failure);
    } catch (const mcp::error& e) {
      EXPECT_EQ(e.code(), asio::error::operation_aborted);
    }
    // A late reply is dropped, and the slot is free again.
    json::object late{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", echo_result("late")}};
    co_await write_json(*s.server, late);
    cancel.emit(asio::cancellation_type::terminal);
    auto next = s.client->async_ping(asio::use_awaitable);
    json::object pong;
    co_await (answer_next(*s.server, std::move(pong)) && std::move(next));
  });
}

TEST(ClientAsync, AnAnswerAfterTheServerCancelledGoesNowhere) {
  std::optional<server_request_reply> kept;
  run_test([&]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    s.client->on_sampling([&](json::object, server_request_reply reply) { kept = std::move(reply); });
    json::object params{{"messages", json::array{}}, {"maxTokens", 5}};
    auto ask = rpc_request(7, "sampling/createMessage", std::move(params));
    co_await write_json(*s.server, ask);
    for (int i = 0; i < 100 && !kept; ++i) co_await sleep_for(5ms);
    CO_ASSERT_TRUE(kept);
    json::object which{{"requestId", 7}};
    auto cancelled = rpc_notification("notifications/cancelled", std::move(which));
    co_await write_json(*s.server, cancelled);
    co_await sleep_for(20ms);
    json::object late{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "late"}}}, {"model", "m"}};
    EXPECT_TRUE(kept->result(std::move(late)));  // the first answer, taken by nobody
    EXPECT_TRUE(co_await stays_silent(*s.server, 100ms)) << "a cancelled request gets no answer";
  });
  // Once the client and its io_context are gone too, an answer still goes nowhere.
  EXPECT_FALSE(kept->error(rpc_error{-1, "too late", nullptr}));
}

TEST(ClientErrors, AnErrorReplyIsAProtocolErrorWithItsCodeInTheJsonRpcCategory) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    auto server = [&]() -> asio::awaitable<void> {
      auto r = co_await read_json(*s.server);
      json::object reply{{"jsonrpc", "2.0"}, {"id", r.at("id")}, {"error", {{"code", -32602}, {"message", "Unknown tool: x"}}}};
      co_await write_json(*s.server, reply);
    };
    auto call = [&]() -> asio::awaitable<void> {
      try {
        co_await s.client->call_tool("x");
        ADD_FAILURE() << "no error";
      } catch (const protocol_error& e) {
        EXPECT_EQ(e.code(), errc::invalid_params);
        EXPECT_EQ(&e.code().category(), &rpc_category());
        EXPECT_EQ(e.error().code, -32602);
        EXPECT_STREQ(e.what(), "Unknown tool: x");
        const mcp::error& base = e;  // one base for every error of the SDK
        EXPECT_EQ(base.code().value(), -32602);
      }
    };
    co_await (server() && call());
  });
}

TEST(ClientErrors, AMalformedResultIsNotTheServersErrorReply) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    auto server = [&]() -> asio::awaitable<void> {
      json::object nameless{{"tools", json::array{{{"description", "no name"}}}}};
      co_await answer_next(*s.server, std::move(nameless));
    };
    auto call = [&]() -> asio::awaitable<void> {
      try {
        co_await s.client->list_tools();
        ADD_FAILURE() << "no error";
      } catch (const protocol_error& e) {
        ADD_FAILURE() << "reported as the server's own error: " << e.what();
      } catch (const malformed_result& e) {
        EXPECT_EQ(e.code(), boost::system::errc::bad_message);
        EXPECT_NE(std::string(e.what()).find("invalid tool"), std::string::npos) << e.what();
      }
    };
    co_await (server() && call());
  });
}

TEST(ClientErrors, AReadResultWithoutContentsIsMalformedNotEmpty) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    auto server = [&]() -> asio::awaitable<void> { co_await answer_next(*s.server, json::object{}); };
    auto call = [&]() -> asio::awaitable<void> {
      try {
        const auto contents = co_await s.client->read_resource("test://r");
        ADD_FAILURE() << "read as " << contents.size() << " contents";
      } catch (const malformed_result& e) {
        EXPECT_NE(std::string(e.what()).find("contents"), std::string::npos) << e.what();
      }
    };
    co_await (server() && call());
  });
}

TEST(ClientErrors, ATimeoutIsAnMcpErrorWithTimedOut) {
  run_test([]() -> asio::awaitable<void> {
    auto s = co_await connect_scripted();
    call_options quick;
    quick.timeout = 50ms;
    try {
      co_await s.client->call_tool("slow", {}, quick);
      ADD_FAILURE() << "no error";
    } catch (const mcp::error& e) {
      EXPECT_EQ(e.code(), asio::error::timed_out);
    }
    co_await read_json(*s.server);  // the call
    auto notice = co_await read_json(*s.server);
    EXPECT_EQ(notice.at("method"), "notifications/cancelled");
  });
}

TEST(ClientErrors, CodesConvertBothWays) {
  boost::system::error_code code = errc::method_not_found;
  EXPECT_EQ(code.value(), -32601);
  EXPECT_EQ(code.category().name(), std::string("mcp.jsonrpc"));
  EXPECT_EQ(code.message(), "Method not found");
  EXPECT_EQ(boost::system::error_code(-32000, rpc_category()).message(), "JSON-RPC error -32000");
  const int on_the_wire = errc::invalid_params;  // still the wire's int
  EXPECT_EQ(on_the_wire, -32602);
  boost::system::error_code tool = sdk_errc::tool_failed;
  EXPECT_EQ(tool.category().name(), std::string("mcp"));
  const mcp::invalid_argument bad("no such option");
  EXPECT_STREQ(bad.what(), "no such option");
  EXPECT_EQ(bad.code(), boost::system::errc::invalid_argument);
}

}  // namespace
}  // namespace mcp::test
