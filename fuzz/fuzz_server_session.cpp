// A whole server session (engine, sans-io core, lifecycle of both eras,
// batches, cancellation, argument validation, completion, the handlers'
// plumbing) fed a client's lines over the in-memory transport. Each line of
// the input is one frame. Checks that it never crashes or hangs, and that
// everything it writes back is a well-formed JSON-RPC frame.

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "fuzz_input.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

struct order_args {
  std::string item;
  int quantity = 1;
  std::optional<std::vector<std::string>> notes;
};
BOOST_DESCRIBE_STRUCT(order_args, (), (item, quantity, notes))

struct order_receipt {
  std::string item;
  int quantity = 0;
};
BOOST_DESCRIBE_STRUCT(order_receipt, (), (item, quantity))

// Every kind of thing a client can ask for; handlers answer at once.
mcp::server& fuzzed_server() {
  static mcp::server* srv = [] {
    auto* s = new mcp::server({"fuzzed", "1.0"});
    s->add_tool("order", "A typed tool", [](const order_args& a) -> asio::awaitable<order_receipt> {
      co_return order_receipt{a.item, a.quantity};
    });
    mcp::tool_info echo;
    echo.name = "echo";
    echo.input_schema = json::parse(
                            R"({"type":"object","properties":{"text":{"type":"string","maxLength":64},
                                "n":{"type":"integer","minimum":0}},"required":["text"]})")
                            .as_object();
    s->add_tool(echo, [](const json::object& args, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
      co_return mcp::call_tool_result::text(json::serialize(args));
    });
    s->add_resource({"demo://readme", "readme"}, [](const std::string& uri, mcp::request_context&)
                        -> asio::awaitable<std::vector<mcp::resource_contents>> {
      co_return std::vector{mcp::resource_contents::from_text(uri, "hello")};
    });
    s->add_resource_template({"demo://items/{id}{?q}", "items"},
                             [](const std::string& uri, const mcp::uri_variables& vars, mcp::request_context&)
                                 -> asio::awaitable<std::vector<mcp::resource_contents>> {
                               const auto id = vars.find("id");
                               co_return std::vector{mcp::resource_contents::from_text(
                                   uri, id == vars.end() ? std::string() : id->second)};
                             });
    mcp::prompt_info greet;
    greet.name = "greet";
    greet.arguments = {{"name", "who", true}};
    s->add_prompt(greet, [](const mcp::prompt_arguments& args, mcp::request_context&)
                             -> asio::awaitable<mcp::get_prompt_result> {
      mcp::get_prompt_result result;
      result.messages.push_back({"user", {{"type", "text"}, {"text", "hi " + args.at("name")}}});
      co_return result;
    });
    s->add_prompt_completion("greet", "name", [](const mcp::completion_request& req, mcp::request_context&)
                                                  -> asio::awaitable<std::vector<std::string>> {
      co_return std::vector<std::string>{req.value + "a", req.value + "b"};
    });
    return s;
  }();
  return *srv;
}

// Whatever the server writes is JSON-RPC: one message or a batch of them.
void check_written(const std::string& frame) {
  const auto parsed = mcp::parse_frame(frame);
  for (const auto& item : parsed.items)
    if (std::holds_alternative<mcp::invalid_message>(item)) std::abort();
}

asio::awaitable<void> send_lines(mcp::message_transport& client, std::string_view input) {
  while (!input.empty()) {
    const auto end = input.find('\n');
    std::string line(input.substr(0, end));
    input.remove_prefix(end == std::string_view::npos ? input.size() : end + 1);
    co_await client.write_frame(std::move(line));
  }
  co_await client.close();
}

asio::awaitable<void> read_replies(mcp::message_transport& client) {
  for (;;) {
    auto frame = co_await client.read_frame();
    if (!frame) co_return;
    check_written(frame->text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto& srv = fuzzed_server();
  asio::io_context io;
  auto [client_end, server_end] = mcp::make_memory_pair(io.get_executor());
  asio::co_spawn(io, mcp::serve(srv, *server_end), asio::detached);
  asio::co_spawn(io, read_replies(*client_end), asio::detached);
  asio::co_spawn(io, send_lines(*client_end, mcp::fuzz::as_text(data, size)), asio::detached);
  io.run();
  return 0;
}
