// call_tool_as: typed arguments in, structuredContent checked against the
// tool's outputSchema and read as a C++ type out; against our typed server,
// and against a scripted server whose results break their schema.

#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "test_support.hpp"
#include "legacy_client.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/describe.hpp>

namespace typed_calls {

struct sum_args {
  int a = 0;
  int b = 0;
};
BOOST_DESCRIBE_STRUCT(sum_args, (), (a, b))

struct sum {
  int total = 0;
  std::string spelled;
};
BOOST_DESCRIBE_STRUCT(sum, (), (total, spelled))

struct mismatched {
  std::vector<int> total;
};
BOOST_DESCRIBE_STRUCT(mismatched, (), (total))

}  // namespace typed_calls

namespace mcp::test {
namespace {

using namespace asio::experimental::awaitable_operators;
using typed_calls::sum;
using typed_calls::sum_args;

// Our typed server: `add` returns a described struct, `fail` reports an error.
void with_typed_server(std::function<asio::awaitable<void>(mcp::client&)> body) {
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::server srv({"typed", "1.0"});
    srv.add_tool("add", "Adds two numbers", [](const sum_args& args) {
      return sum{args.a + args.b, std::to_string(args.a) + " + " + std::to_string(args.b)};
    });
    srv.add_tool("fail", "Always fails", []() { return call_tool_result::error("out of order"); });
    srv.add_resource({"file:///note.txt", "note.txt"},
                     [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
                       co_return std::vector<resource_contents>{resource_contents::from_text(uri, "hello")};
                     });
    auto [client_end, server_end] = make_memory_pair(ex);
    bool served = false;
    asio::co_spawn(ex, serve(srv, *server_end), [&](std::exception_ptr) { served = true; });
    mcp::client c(ex, legacy_only());
    co_await c.connect(std::move(client_end));
    co_await body(c);
    co_await c.close();
    while (!served) co_await sleep_for(std::chrono::milliseconds(5));
  });
}

TEST(ClientTypedCalls, StructArgumentsInStructResultOut) {
  with_typed_server([](mcp::client& c) -> asio::awaitable<void> {
    const sum_args args{2, 3};
    const auto result = co_await c.call_tool_as<sum>("add", args);
    EXPECT_EQ(result.total, 5);
    EXPECT_EQ(result.spelled, "2 + 3");

    json::object raw{{"a", 40}, {"b", 2}};
    const auto value = co_await c.call_tool_as<json::value>("add", raw);
    EXPECT_EQ(value.at("total"), 42);
  });
}

TEST(ClientTypedCalls, AnyMethodOfTheTableTypedBothWays) {
  with_typed_server([](mcp::client& c) -> asio::awaitable<void> {
    paginated_params first_page;
    const auto tools = co_await c.request<method::tools_list>(std::move(first_page));
    EXPECT_EQ(tools.tools.size(), 2u);
    EXPECT_EQ(tools.tools.at(0).name, "add");
    EXPECT_FALSE(tools.next_cursor);

    call_tool_params call{"add", {{"a", 2}, {"b", 40}}};
    const auto sum = co_await c.request<method::tools_call>(std::move(call));
    EXPECT_EQ(json::serialize(sum.structured_content.value_or(nullptr)), R"({"total":42,"spelled":"2 + 40"})");

    resource_params note{"file:///note.txt"};
    const auto read = co_await c.request<method::resources_read>(std::move(note));
    EXPECT_EQ(read.contents.size(), 1u);
    EXPECT_EQ(read.contents.at(0).text.value_or(""), "hello");

    empty_params none;
    co_await c.request<method::ping>(std::move(none));
    empty_params changed;
    co_await c.notify<method::notifications_roots_list_changed>(std::move(changed));

    // What the server refuses stays its JSON-RPC error.
    resource_params missing{"file:///nowhere"};
    int code = 0;
    try {
      co_await c.request<method::resources_read>(std::move(missing));
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::resource_not_found);
  });
}

TEST(ClientTypedCalls, AFailingToolIsAToolCallErrorCarryingTheResult) {
  with_typed_server([](mcp::client& c) -> asio::awaitable<void> {
    std::string why;
    bool is_error = false;
    try {
      json::object none;
      co_await c.call_tool_as<sum>("fail", none);
    } catch (const tool_call_error& e) {
      why = e.what();
      is_error = e.result().is_error;
    }
    EXPECT_EQ(why, "tool fail failed: out of order");
    EXPECT_TRUE(is_error);
  });
}

TEST(ClientTypedCalls, AResultOfTheWrongTypeSaysWhere) {
  with_typed_server([](mcp::client& c) -> asio::awaitable<void> {
    std::string why;
    try {
      const sum_args args{1, 1};
      co_await c.call_tool_as<typed_calls::mismatched>("add", args);
    } catch (const tool_call_error& e) {
      why = e.what();
    }
    EXPECT_EQ(why, "the result of tool add does not convert: /total: expected array, got integer");
  });
}

// A server whose `add` declares an outputSchema and answers each call with
// the next of `answers` (a CallToolResult each).
asio::awaitable<void> lying_server(message_transport& server, std::vector<json::object> answers) {
  auto hello = co_await read_json(server);
  json::object init{{"protocolVersion", "2025-11-25"},
                    {"capabilities", {{"tools", json::object{}}}},
                    {"serverInfo", {{"name", "liar"}, {"version", "0.1"}}}};
  json::object init_reply{{"jsonrpc", "2.0"}, {"id", hello.at("id")}, {"result", std::move(init)}};
  co_await write_json(server, init_reply);
  co_await read_json(server);  // notifications/initialized
  auto list = co_await read_json(server);
  EXPECT_EQ(list.at("method"), "tools/list");
  json::object schema{{"type", "object"},
                      {"properties", {{"total", {{"type", "integer"}}}}},
                      {"required", {"total"}}};
  json::object tool{{"name", "add"}, {"inputSchema", {{"type", "object"}}}, {"outputSchema", schema}};
  json::object tools{{"tools", json::array{tool}}};
  json::object list_reply{{"jsonrpc", "2.0"}, {"id", list.at("id")}, {"result", std::move(tools)}};
  co_await write_json(server, list_reply);
  for (auto& answer : answers) {
    auto call = co_await read_json(server);
    json::object reply{{"jsonrpc", "2.0"}, {"id", call.at("id")}, {"result", std::move(answer)}};
    co_await write_json(server, reply);
  }
}

// What each call to the lying server throws, or "" when it returns.
asio::awaitable<std::vector<std::string>> call_lying_server(std::vector<json::object> answers, bool typed) {
  auto ex = co_await asio::this_coro::executor;
  // Named members, not a structured binding: clang 14 cannot capture one.
  auto ends = make_memory_pair(ex);
  auto& client_end = ends.first;
  auto& server_end = ends.second;
  mcp::client c(ex, legacy_only());
  const auto count = answers.size();
  auto calls = [&]() -> asio::awaitable<std::vector<std::string>> {
    co_await c.connect(std::move(client_end));
    if (!typed) co_await c.list_tools();
    std::vector<std::string> failures;
    for (std::size_t i = 0; i < count; ++i) {
      json::object args{{"a", 1}};
      try {
        if (typed)
          co_await c.call_tool_as<sum>("add", args);
        else
          co_await c.call_tool("add", args);
        failures.emplace_back();
      } catch (const tool_call_error& e) {
        failures.emplace_back(e.what());
      }
    }
    co_return failures;
  };
  auto failures = co_await (lying_server(*server_end, std::move(answers)) && calls());
  co_await c.close();
  co_return failures;
}

std::vector<json::object> off_schema_answers() {
  json::object fits{{"content", json::array{}}, {"structuredContent", {{"total", 2}, {"spelled", "1 + 1"}}}};
  json::object wrong_type{{"content", json::array{}}, {"structuredContent", {{"total", "two"}}}};
  json::object missing{{"content", json::array{json::object{{"type", "text"}, {"text", "2"}}}}};
  return {fits, wrong_type, missing};
}

TEST(ClientTypedCalls, StructuredContentIsCheckedAgainstTheOutputSchema) {
  run_test([]() -> asio::awaitable<void> {
    const auto failures = co_await call_lying_server(off_schema_answers(), true);
    EXPECT_EQ(failures, (std::vector<std::string>{
                            "",
                            "the structuredContent of tool add does not match its outputSchema: "
                            "/total: expected integer, got string",
                            "tool add declares an outputSchema but sent no structuredContent"}));
  });
}

TEST(ClientTypedCalls, PlainCallsAreCheckedOnceTheSchemaIsKnown) {
  run_test([]() -> asio::awaitable<void> {
    const auto failures = co_await call_lying_server(off_schema_answers(), false);
    EXPECT_EQ(failures.size(), 3u);
    if (failures.size() != 3) co_return;
    EXPECT_EQ(failures[0], "");
    EXPECT_NE(failures[1].find("does not match its outputSchema"), std::string::npos);
    EXPECT_NE(failures[2].find("sent no structuredContent"), std::string::npos);
  });
}

}  // namespace
}  // namespace mcp::test
