// A server for the tests of the caduceus CLI's answers to a server: it asks
// what the everything demo does not (a form of every field type, a URL to
// open, a URL required before a call), tells what request headers reached
// it, and has a subscribable resource and a list that changes.
//
//   cli-peer-server [--legacy] [--http]
//
// Over stdio by default; --http listens on 127.0.0.1 and a free port and
// prints its URL first. --legacy serves the versions up to 2025-11-25 only
// (requests to the client, notifications/elicitation/complete).

#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

// Every kind of field the spec allows in a form (2025-11-25, SEP-1330 enums).
constexpr std::string_view form_schema = R"json({"type":"object","properties":{
  "name":{"type":"string","title":"Your name","description":"How we address you","minLength":2,"maxLength":20},
  "email":{"type":"string","format":"email"},
  "age":{"type":"integer","minimum":18,"maximum":130,"default":30},
  "score":{"type":"number","exclusiveMinimum":0,"maximum":10},
  "subscribe":{"type":"boolean","title":"Subscribe","default":false},
  "color":{"type":"string","title":"Color","oneOf":[{"const":"#f00","title":"Red"},{"const":"#0f0","title":"Green"}],
           "default":"#0f0"},
  "size":{"type":"string","enum":["S","M","L"]},
  "toppings":{"type":"array","title":"Toppings","minItems":1,"maxItems":2,
              "items":{"anyOf":[{"const":"ham","title":"Ham"},{"const":"egg","title":"Egg"},{"const":"kale","title":"Kale"}]}}},
  "required":["name","email","toppings"]})json";

std::string string_argument(const json::object& args, std::string_view key) {
  const auto* v = args.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

mcp::tool_info tool(std::string name, std::string description, std::string_view schema) {
  mcp::tool_info info{std::move(name), std::move(description)};
  info.input_schema = json::parse(schema).as_object();
  return info;
}

constexpr std::string_view no_arguments = R"json({"type":"object","properties":{}})json";

void add_tools(mcp::server& srv) {
  srv.add_tool(tool("form", "Asks for a form of every field type", no_arguments),
               [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
                 auto schema = json::parse(form_schema).as_object();
                 std::string message = "Tell us about you";
                 const auto answer = co_await ctx.elicit(std::move(message), std::move(schema));
                 co_return mcp::call_tool_result::text(json::serialize(answer));
               });

  srv.add_tool(tool("open_url", "Asks the user to open a URL", no_arguments),
               [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
                 std::string message = "Connect your account";
                 std::string url = "https://auth.example.com/connect?flow=42";
                 std::string id = "flow-42";
                 const auto answer = co_await ctx.elicit_url(std::move(message), std::move(url), std::move(id));
                 const bool accepted = answer.at("action") == "accept";
                 if (accepted && !mcp::is_modern(ctx.version())) {  // the notification is 2025-11-25's
                   json::object done{{"elicitationId", "flow-42"}};
                   co_await ctx.notify("notifications/elicitation/complete", std::move(done));
                 }
                 co_return mcp::call_tool_result::text(json::serialize(answer));
               });

  srv.add_tool(tool("needs_url", "Fails until the user opened a URL (-32042)", no_arguments),
               [](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
                 json::object page{{"mode", "url"},
                                   {"elicitationId", "pay-7"},
                                   {"url", "https://pay.example.com/checkout?order=7"},
                                   {"message", "Pay for order 7"}};
                 json::object data{{"elicitations", json::array{std::move(page)}}};
                 throw mcp::protocol_error(mcp::errc::url_elicitation_required, "This request requires more information.",
                                           std::move(data));
               });

  srv.add_tool(tool("sample", "Asks the client's model", no_arguments),
               [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
                 json::object content{{"type", "text"}, {"text", "hello"}};
                 json::object message{{"role", "user"}, {"content", std::move(content)}};
                 json::object params{{"messages", json::array{std::move(message)}}, {"maxTokens", 10}};
                 const auto reply = co_await ctx.sample(std::move(params));
                 co_return mcp::call_tool_result::text(json::serialize(reply));
               });

  srv.add_tool(tool("header", "Returns the value of a request header",
                    R"json({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})json"),
               [](const json::object& args, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
                 const auto value = ctx.session().transport().headers.find(string_argument(args, "name"));
                 co_return mcp::call_tool_result::text(value ? std::string(*value) : std::string("(none)"));
               });

  srv.add_tool(tool("touch", "Tells subscribers that peer://note changed", no_arguments),
               [&srv](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
                 srv.notify_resource_updated("peer://note");
                 co_return mcp::call_tool_result::text("touched");
               });

  srv.add_tool(tool("toggle", "Adds or removes the tool 'extra'", no_arguments),
               [&srv](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
                 if (srv.remove_tool("extra")) co_return mcp::call_tool_result::text("removed");
                 srv.add_tool(tool("extra", "Comes and goes", no_arguments),
                              [](const json::object&, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
                                co_return mcp::call_tool_result::text("extra");
                              });
                 co_return mcp::call_tool_result::text("added");
               });

  auto slow = tool("slow", "Works for `ms` milliseconds, as a task when the client asks for one",
                   R"json({"type":"object","properties":{"ms":{"type":"integer","minimum":0}}})json");
  slow.task_support = mcp::task_support::optional;
  srv.add_tool(slow, [](const json::object& args, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
    const auto* ms = args.if_contains("ms");
    asio::steady_timer timer(co_await asio::this_coro::executor);
    timer.expires_after(std::chrono::milliseconds(ms && ms->is_int64() ? ms->get_int64() : 100));
    co_await timer.async_wait(asio::use_awaitable);
    co_return mcp::call_tool_result::text("slept");
  });

  srv.add_resource({"peer://note", "note", std::nullopt, "A note that changes", "text/plain"},
                   [](const std::string& uri, mcp::request_context&) -> asio::awaitable<std::vector<mcp::resource_contents>> {
                     co_return std::vector<mcp::resource_contents>{
                         mcp::resource_contents::from_text(uri, "a note", "text/plain")};
                   });
}

}  // namespace

int main(int argc, char** argv) {
  bool legacy = false;
  bool http = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--legacy") legacy = true;
    else if (arg == "--http") http = true;
    else return 2;
  }
  mcp::server_options settings;
  if (legacy) settings.protocol_versions.assign(mcp::legacy_versions().begin(), mcp::legacy_versions().end());
  mcp::server srv({"cli-peer-server", "1.0.0"}, settings);
  add_tools(srv);
  if (!http) return mcp::run_stdio_server(srv);
  mcp::http_server_options options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.threads = 1;
  // The first line of stdout is the endpoint: a caller that asked for port 0 reads it.
  const auto result = mcp::run_http_server(srv, options, [](std::string_view url) { std::cout << url << std::endl; });
  if (result.handlers_left_running) std::_Exit(result.exit_code);  // (they still use `srv`)
  return result.exit_code;
}
