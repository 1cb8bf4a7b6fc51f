// Typed tools: schemas, validation and conversion from one C++ struct.

#include <mcp/server/server.hpp>

#include "server_harness.hpp"
#include "weather.hpp"

#include <boost/describe.hpp>

#include <thread>

namespace weather {  // forecast_args and forecast come from examples/weather.hpp

struct add_args {
  double a = 0;
  double b = 0;
};
BOOST_DESCRIBE_STRUCT(add_args, (), (a, b))

struct sum {
  double value = 0;
};
BOOST_DESCRIBE_STRUCT(sum, (), (value))

}  // namespace weather

namespace mcp::test {
namespace {

using weather::add_args;
using weather::forecast;
using weather::forecast_args;

struct probes {
  std::thread::id handler_thread;
  std::thread::id non_blocking_thread;
};

std::shared_ptr<server> typed_server(std::shared_ptr<probes> seen) {
  auto srv = std::make_shared<server>(implementation{"typed", "1.0"});
  srv->add_tool("forecast", "Forecast for a city", [seen](const forecast_args& a) -> forecast {
    seen->handler_thread = std::this_thread::get_id();
    const double base = a.unit == weather::units::fahrenheit ? 70 : 21;
    return {base + a.days, base - a.days, "sunny in " + a.city};
  });
  srv->add_tool("add", "Adds two numbers",
                [](add_args a, request_context& ctx) -> asio::awaitable<weather::sum> {
                  co_await ctx.progress(1, 1);
                  co_return weather::sum{a.a + a.b};
                });
  srv->add_tool("now", "No arguments", []() -> std::string { return "it is now"; });
  srv->add_tool("quick", "Never blocks", non_blocking([seen](const add_args& a) {
    seen->non_blocking_thread = std::this_thread::get_id();
    return weather::sum{a.a + a.b};
  }));
  srv->add_tool("quick_divide", "Never blocks; throws on zero", non_blocking([](const add_args& a) -> weather::sum {
    if (a.b == 0) throw std::domain_error("cannot divide by zero");
    return weather::sum{a.a / a.b};
  }));
  srv->add_tool("maybe", "Fails as a value", [](const add_args& a) -> tool_result<std::string> {
    if (a.b == 0) return tool_error{"division by zero"};
    return std::to_string(a.a / a.b);
  });
  tool_info raw{"raw", "Hand-written schema"};
  raw.input_schema = json::parse(R"({"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]})").as_object();
  raw.output_schema = json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]})").as_object();
  srv->add_tool(raw, [](const json::object& args, request_context&) -> asio::awaitable<call_tool_result> {
    call_tool_result r;
    if (args.at("n").as_int64() == 13)
      r.structured_content = json::object{{"n", "thirteen"}};  // breaks its own outputSchema
    else
      r.structured_content = json::object{{"n", args.at("n")}};
    co_return r;
  });
  return srv;
}

asio::awaitable<json::value> call_tool(harness& h, int id, std::string name, json::object args) {
  json::object params{{"name", std::move(name)}, {"arguments", std::move(args)}};
  co_return co_await h.call(id, "tools/call", std::move(params));
}

json::object listed_tool(const json::value& list, std::string_view name) {
  for (const auto& t : list.at("result").at("tools").as_array())
    if (t.at("name").as_string() == name) return t.as_object();
  return {};
}

TEST(TypedTool, SchemaComesFromTheArgumentStruct) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, typed_server(std::make_shared<probes>()));
    co_await h.initialize();
    auto list = co_await h.call(1, "tools/list");
    const auto tool = listed_tool(list, "forecast");
    const auto& schema = tool.at("inputSchema").as_object();
    EXPECT_EQ(schema.at("type"), "object");
    EXPECT_EQ(schema.at("required"), (json::array{"city"}));
    EXPECT_EQ(schema.at("properties").at("city").at("description"), "City name, e.g. Paris");
    EXPECT_EQ(schema.at("properties").at("days").at("maximum"), 7);
    EXPECT_EQ(schema.at("properties").at("unit").at("enum"), (json::array{"celsius", "fahrenheit"}));
    EXPECT_EQ(tool.at("outputSchema").at("properties").at("summary").at("type"), "string");
    const auto none = listed_tool(list, "now");
    EXPECT_EQ(none.at("inputSchema"), (json::object{{"type", "object"}, {"properties", json::object{}}}));
  });
}

TEST(TypedTool, PlainFunctionRunsOnTheWorkerPoolWithParsedArguments) {
  run_test([]() -> asio::awaitable<void> {
    auto seen = std::make_shared<probes>();
    harness h(co_await asio::this_coro::executor, typed_server(seen));
    co_await h.initialize();
    json::object args{{"city", "Paris"}, {"days", 3}, {"unit", "fahrenheit"}};
    auto reply = co_await call_tool(h, 1, "forecast", args);
    const auto& result = reply.at("result").as_object();
    EXPECT_EQ(result.at("structuredContent").at("high"), 73.0);
    EXPECT_EQ(result.at("structuredContent").at("summary"), "sunny in Paris");
    EXPECT_EQ(json::parse(result.at("content").at(0).at("text").as_string()),
              result.at("structuredContent"));
    EXPECT_NE(seen->handler_thread, std::this_thread::get_id());
  });
}

TEST(TypedTool, NonBlockingFunctionRunsInlineOnTheSessionThread) {
  run_test([]() -> asio::awaitable<void> {
    auto seen = std::make_shared<probes>();
    harness h(co_await asio::this_coro::executor, typed_server(seen));
    co_await h.initialize();
    json::object args{{"a", 2}, {"b", 3}};
    auto reply = co_await call_tool(h, 1, "quick", args);
    EXPECT_EQ(reply.at("result").at("structuredContent").at("value"), 5.0);
    EXPECT_EQ(seen->non_blocking_thread, std::this_thread::get_id());
  });
}

TEST(TypedTool, NonBlockingFunctionFailsLikeAnyOther) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, typed_server(std::make_shared<probes>()));
    co_await h.initialize();
    json::object fine{{"a", 6}, {"b", 3}};
    auto quotient = co_await call_tool(h, 1, "quick_divide", fine);
    EXPECT_EQ(quotient.at("result").at("structuredContent").at("value"), 2.0);
    // An exception is a tool error the model can read.
    json::object zero{{"a", 6}, {"b", 0}};
    auto thrown = co_await call_tool(h, 2, "quick_divide", zero);
    EXPECT_EQ(thrown.at("result").at("isError"), true);
    EXPECT_EQ(thrown.at("result").at("content").at(0).at("text"), "cannot divide by zero");
    // Arguments that do not match the schema never reach it.
    json::object wrong{{"a", "six"}, {"b", 3}};
    auto refused = co_await call_tool(h, 3, "quick_divide", wrong);
    EXPECT_EQ(refused.at("result").at("isError"), true);
    const std::string text(refused.at("result").at("content").at(0).at("text").as_string());
    EXPECT_NE(text.find("/a"), std::string::npos) << text;
    // An unknown tool is still a protocol error.
    auto unknown = co_await call_tool(h, 4, "no_such_tool", fine);
    EXPECT_EQ(unknown.at("error").at("code"), errc::invalid_params);
  });
}

TEST(TypedTool, InvalidArgumentsAreAToolErrorNamingTheField) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, typed_server(std::make_shared<probes>()));
    co_await h.initialize();
    json::object too_far{{"city", "Paris"}, {"days", 30}};
    auto reply = co_await call_tool(h, 1, "forecast", too_far);
    EXPECT_EQ(reply.at("result").at("isError"), true);
    const std::string text(reply.at("result").at("content").at(0).at("text").as_string());
    EXPECT_NE(text.find("/days"), std::string::npos) << text;
    json::object no_city{{"days", 2}};
    auto missing = co_await call_tool(h, 2, "forecast", no_city);
    const std::string missing_text(missing.at("result").at("content").at(0).at("text").as_string());
    EXPECT_NE(missing_text.find("city"), std::string::npos) << missing_text;
    json::object bad_raw{{"n", -1}};
    auto raw = co_await call_tool(h, 3, "raw", bad_raw);
    EXPECT_EQ(raw.at("result").at("isError"), true);
  });
}

TEST(TypedTool, CoroutineHandlerGetsTheContext) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, typed_server(std::make_shared<probes>()));
    co_await h.initialize();
    json::object params{{"name", "add"}, {"arguments", {{"a", 2}, {"b", 3.5}}}, {"_meta", {{"progressToken", "p"}}}};
    auto request = rpc_request(1, "tools/call", params);
    co_await write_json(*h.client, request);
    std::vector<json::value> notes;
    auto reply = co_await h.reply_to(1, &notes);
    EXPECT_EQ(reply.at("result").at("structuredContent").at("value"), 5.5);
    CO_ASSERT_TRUE(notes.size() == 1u);
    EXPECT_EQ(notes[0].at("method"), "notifications/progress");
  });
}

TEST(TypedTool, ToolResultCarriesErrorsAsValues) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, typed_server(std::make_shared<probes>()));
    co_await h.initialize();
    json::object zero{{"a", 1}, {"b", 0}};
    auto failed = co_await call_tool(h, 1, "maybe", zero);
    EXPECT_EQ(failed.at("result").at("isError"), true);
    EXPECT_EQ(failed.at("result").at("content").at(0).at("text"), "division by zero");
    json::object fine{{"a", 1}, {"b", 4}};
    auto ok = co_await call_tool(h, 2, "maybe", fine);
    EXPECT_FALSE(ok.at("result").as_object().contains("isError"));
  });
}

TEST(TypedTool, StructuredContentIsCheckedAgainstTheOutputSchema) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, typed_server(std::make_shared<probes>()));
    co_await h.initialize();
    json::object good{{"n", 4}};
    auto ok = co_await call_tool(h, 1, "raw", good);
    EXPECT_EQ(ok.at("result").at("structuredContent").at("n"), 4);
    json::object unlucky{{"n", 13}};
    auto broken = co_await call_tool(h, 2, "raw", unlucky);
    EXPECT_EQ(error_code(broken), errc::internal_error);
  });
}

}  // namespace
}  // namespace mcp::test

namespace review {

struct review_args {
  std::string code;
  std::optional<std::string> language;
};
BOOST_DESCRIBE_STRUCT(review_args, (), (code, language))

inline auto mcp_fields(mcp::type_t<review_args>) {
  return std::tuple{mcp::field(&review_args::code, "The code to review")};
}

enum class size { small, large };
BOOST_DESCRIBE_ENUM(size, small, large)

struct order_form {
  bool confirm = false;
  size cup = size::small;
};
BOOST_DESCRIBE_STRUCT(order_form, (), (confirm, cup))

}  // namespace review

namespace mcp::test {
namespace {

std::shared_ptr<server> prompt_server() {
  auto srv = std::make_shared<server>(implementation{"prompts", "1.0"});
  srv->add_prompt("review", "Review code", [](const review::review_args& a) {
    return "Review this " + a.language.value_or("code") + ":\n" + a.code;
  });
  srv->add_tool("order", "Orders coffee after asking", [](request_context& ctx) -> asio::awaitable<std::string> {
    auto answer = co_await elicit<review::order_form>(ctx, "Your order?");
    if (!answer.accepted()) co_return "no order: " + answer.action;
    co_return std::string(answer.content->confirm ? "confirmed " : "unconfirmed ") +
        (answer.content->cup == review::size::large ? "large" : "small");
  });
  return srv;
}

TEST(TypedPrompt, ArgumentsComeFromTheStruct) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, prompt_server());
    co_await h.initialize();
    auto list = co_await h.call(1, "prompts/list");
    const auto& args = list.at("result").at("prompts").at(0).at("arguments").as_array();
    CO_ASSERT_TRUE(args.size() == 2u);
    EXPECT_EQ(args[0].at("name"), "code");
    EXPECT_EQ(args[0].at("required"), true);
    EXPECT_EQ(args[0].at("description"), "The code to review");
    EXPECT_EQ(args[1].at("name"), "language");
    EXPECT_FALSE(args[1].as_object().contains("required"));
    json::object get{{"name", "review"}, {"arguments", {{"code", "x=1"}, {"language", "python"}}}};
    auto prompt = co_await h.call(2, "prompts/get", get);
    EXPECT_EQ(prompt.at("result").at("messages").at(0).at("content").at("text"), "Review this python:\nx=1");
    json::object missing{{"name", "review"}};
    auto refused = co_await h.call(3, "prompts/get", missing);
    EXPECT_EQ(error_code(refused), errc::invalid_params);
  });
}

TEST(TypedElicit, SchemaFromTheStructAndAnswerParsedBack) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, prompt_server());
    json::object caps{{"elicitation", json::object{}}};
    co_await h.initialize("2025-11-25", caps);
    json::object call{{"name", "order"}};
    auto request = rpc_request(1, "tools/call", call);
    co_await write_json(*h.client, request);
    auto ask = co_await read_json(*h.client);
    EXPECT_EQ(ask.at("method"), "elicitation/create");
    const auto& schema = ask.at("params").at("requestedSchema").as_object();
    EXPECT_EQ(schema.at("properties").at("cup").at("enum"), (json::array{"small", "large"}));
    json::object answer{{"jsonrpc", "2.0"},
                        {"id", ask.at("id")},
                        {"result", {{"action", "accept"}, {"content", {{"confirm", true}, {"cup", "large"}}}}}};
    co_await write_json(*h.client, answer);
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "confirmed large");
  });
}

}  // namespace
}  // namespace mcp::test
