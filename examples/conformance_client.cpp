// The client side of the official MCP conformance suite
// (npm @modelcontextprotocol/conformance, `conformance client --command ...`):
// the suite starts a mock server, runs `conformance-client URL` with the
// scenario in MCP_CONFORMANCE_SCENARIO, and judges what the client does.
// Written as a user of the SDK would write a client: connect over HTTP, then
// what the scenario asks for.

#include <mcp/client/client.hpp>
#include <mcp/transport/http_client.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <iostream>
#include <string>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

// Calls the scenario's tool (the first one listed, for `tools_call`).
asio::awaitable<void> run_scenario(std::string scenario, std::string url) {
  auto ex = co_await asio::this_coro::executor;
  mcp::client client(ex);
  // SEP-1034 scenario: the user accepts without filling anything in; the
  // client fills in the schema's defaults.
  client.on_elicitation([](json::object) -> asio::awaitable<json::object> {
    co_return json::object{{"action", "accept"}, {"content", json::object()}};
  });
  auto transport = co_await mcp::connect_http(ex, url);
  co_await client.connect(std::move(transport));
  const auto tools = co_await client.list_tools();
  if (scenario == "tools_call" && !tools.empty()) {
    json::object arguments{{"a", 2}, {"b", 3}};
    const auto result = co_await client.call_tool(tools.front().name, std::move(arguments));
    std::cout << tools.front().name << ": " << result.text_content() << "\n";
  } else if (scenario == "elicitation-sep1034-client-defaults") {
    const auto result = co_await client.call_tool("test_client_elicitation_defaults");
    std::cout << result.text_content() << "\n";
  } else if (scenario == "sse-retry") {
    const auto result = co_await client.call_tool("test_reconnection");
    std::cout << result.text_content() << "\n";
  }
  co_await client.close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: conformance-client URL (scenario in MCP_CONFORMANCE_SCENARIO)\n";
    return 2;
  }
  const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
  asio::io_context io;
  int exit_code = 0;
  asio::co_spawn(io, run_scenario(scenario ? scenario : "initialize", argv[argc - 1]),
                 [&](std::exception_ptr failure) {
                   if (!failure) return;
                   try {
                     std::rethrow_exception(failure);
                   } catch (const std::exception& e) {
                     std::cerr << "conformance-client: " << e.what() << "\n";
                   }
                   exit_code = 1;
                 });
  io.run();
  return exit_code;
}
