// The telemetry events of a server and a client at work: what a subscriber
// learns about requests, tools, sessions, refusals and client calls.

#include "event_recorder.hpp"
#include "legacy_client.hpp"
#include "memory_server_client.hpp"

namespace mcp::test {
namespace {

using telemetry::event;

void add_tools(mcp::server& srv) {
  srv.add_tool(tool_named("fine"), [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    co_return call_tool_result::text("fine");
  });
  srv.add_tool(tool_named("fails"), [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    co_return call_tool_result::error("it failed");
  });
  srv.add_prompt("greeting", "says hello", [] { return std::string("hello"); });
}

TEST(ServingEvents, RequestsReportTheirMethodOutcomeAndDuration) {
  event_recorder events({event::server_request_start, event::server_request_stop, event::tool_call,
                         event::prompt_get, event::client_request_stop});
  with_server_and_client(add_tools, legacy_only(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
    co_await c.call_tool("fine", json::object{});
    co_await c.call_tool("fails", json::object{});
    json::object missing{{"name", "missing"}};
    try {
      co_await c.request("tools/call", std::move(missing));
    } catch (const protocol_error&) {
    }
    co_await c.get_prompt("greeting");
  });
  const auto stops = events.of(event::server_request_stop);
  const auto fine = events.find(event::server_request_stop, "target", "fine");
  ASSERT_TRUE(fine);
  EXPECT_EQ(fine->at("method"), "tools/call");
  EXPECT_EQ(fine->at("outcome"), "ok");
  EXPECT_EQ(fine->at("transport"), "memory");
  EXPECT_EQ(fine->at("protocol_version"), "2025-11-25");
  EXPECT_FALSE(fine->at("session_id").empty());
  EXPECT_GE(fine->measurements.at("duration"), 0.0);
  const auto failed_tool = events.find(event::server_request_stop, "target", "fails");
  ASSERT_TRUE(failed_tool);
  EXPECT_EQ(failed_tool->at("outcome"), "ok");
  EXPECT_EQ(failed_tool->at("error_type"), "tool_error");
  const auto missing = events.find(event::server_request_stop, "target", "missing");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->at("outcome"), "error");
  EXPECT_EQ(missing->integers.at("error_code"), errc::invalid_params);
  EXPECT_EQ(missing->at("error_type"), "-32602");
  // Every request that started stopped.
  EXPECT_EQ(events.of(event::server_request_start).size(), stops.size());

  const auto tool_calls = events.of(event::tool_call);
  ASSERT_EQ(tool_calls.size(), 3u);
  EXPECT_EQ(tool_calls[0].at("tool"), "fine");
  EXPECT_EQ(tool_calls[0].at("outcome"), "ok");
  EXPECT_EQ(tool_calls[1].at("outcome"), "tool_error");
  EXPECT_EQ(tool_calls[2].at("outcome"), "error");
  const auto prompts = events.of(event::prompt_get);
  ASSERT_EQ(prompts.size(), 1u);
  EXPECT_EQ(prompts[0].at("prompt"), "greeting");

  const auto client_error = events.find(event::client_request_stop, "outcome", "error");
  ASSERT_TRUE(client_error);
  EXPECT_EQ(client_error->at("method"), "tools/call");
  EXPECT_EQ(client_error->integers.at("error_code"), errc::invalid_params);
  EXPECT_EQ(client_error->at("server"), "observed");
}

TEST(ServingEvents, ModernRequestsHaveNoSessionAndCarryTheirTraceId) {
  event_recorder events({event::server_request_stop});
  with_server_and_client(add_tools, client_options{}, [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
    call_options traced;
    traced.trace.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    co_await c.call_tool("fine", json::object{}, traced);
  });
  const auto fine = events.find(event::server_request_stop, "target", "fine");
  ASSERT_TRUE(fine);
  EXPECT_EQ(fine->at("protocol_version"), "2026-07-28");
  EXPECT_EQ(fine->at("session_id"), "");
  EXPECT_EQ(fine->at("trace_id"), "0af7651916cd43dd8448eb211c80319c");
}

TEST(ServingEvents, AHandlerThatThrowsIsReported) {
  event_recorder events({event::server_request_exception});
  with_server_and_client(
      [](mcp::server& srv) {
        srv.add_resource(resource_info{"mem://broken", "broken"},
                         [](const std::string&, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
                           throw std::runtime_error("disk on fire");
                           co_return std::vector<resource_contents>{};
                         });
      },
      legacy_only(), [&](mcp::server&, mcp::client& c) -> asio::awaitable<void> {
        try {
          co_await c.read_resource("mem://broken");
        } catch (const protocol_error&) {
        }
      });
  const auto thrown = events.of(event::server_request_exception);
  ASSERT_EQ(thrown.size(), 1u);
  EXPECT_EQ(thrown[0].at("method"), "resources/read");
  EXPECT_EQ(thrown[0].at("message"), "disk on fire");
}

TEST(ServingEvents, ASessionReportsItsOpeningAndItsEnd) {
  event_recorder events({event::session_created, event::session_closed});
  client_options options = legacy_only();
  options.client_info = {"event-client", "2.5"};
  with_server_and_client(add_tools, options, [&](mcp::server&, mcp::client&) -> asio::awaitable<void> { co_return; });
  const auto created = events.of(event::session_created);
  const auto closed = events.of(event::session_closed);
  ASSERT_EQ(created.size(), 1u);
  ASSERT_EQ(closed.size(), 1u);
  EXPECT_EQ(created[0].at("client_name"), "event-client");
  EXPECT_EQ(created[0].at("client_version"), "2.5");
  EXPECT_EQ(created[0].at("session_id"), closed[0].at("session_id"));
  EXPECT_GE(closed[0].measurements.at("duration"), 0.0);
}

TEST(ServingEvents, RefusedInputIsReportedBeforeAnyHandler) {
  event_recorder events({event::parse_error, event::validation_error});
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::server srv({"observed", "1.0"});
    auto [client_end, server_end] = make_memory_pair(ex);
    bool served = false;
    asio::co_spawn(ex, serve(srv, *server_end), [&](std::exception_ptr) { served = true; });
    co_await client_end->write_frame("{not json");
    co_await read_json(*client_end);
    co_await write_json(*client_end, rpc_request(1, "tools/list"));  // before initialize
    co_await read_json(*client_end);
    co_await client_end->close();
    while (!served) co_await sleep_for(std::chrono::milliseconds(5));
  });
  const auto parse = events.of(event::parse_error);
  ASSERT_EQ(parse.size(), 1u);
  EXPECT_EQ(parse[0].integers.at("error_code"), errc::parse_error);
  EXPECT_EQ(parse[0].at("transport"), "memory");
  const auto invalid = events.of(event::validation_error);
  ASSERT_EQ(invalid.size(), 1u);
  EXPECT_EQ(invalid[0].at("method"), "tools/list");
}

}  // namespace
}  // namespace mcp::test
