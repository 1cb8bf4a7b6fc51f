#include "everything_fixture.hpp"

#include <mcp/transport/http_client.hpp>
#include <mcp/transport/process.hpp>

namespace mcp::test {

std::map<everything_transport, std::unique_ptr<everything_http_server>>& everything_test::shared_servers() {
  static std::map<everything_transport, std::unique_ptr<everything_http_server>> servers;
  return servers;
}

void everything_test::TearDownTestSuite() { shared_servers().clear(); }

void everything_test::SetUp() {
  if (transport() == everything_transport::stdio) return;
  auto& server = shared_servers()[transport()];
  try {
    // A server that died in an earlier test (its failure shows there) is replaced.
    if (!server || !server->running()) server = std::make_unique<everything_http_server>(transport());
  } catch (const std::exception& e) {
    FAIL() << e.what();
  }
  server_ = server.get();
}

asio::awaitable<std::unique_ptr<message_transport>> everything_test::open_transport() {
  auto ex = co_await asio::this_coro::executor;
  if (transport() == everything_transport::stdio) {
    process_options options;
    options.command = node_program();
    options.args = {everything_script(), "stdio"};
    options.env = {{marker_variable, marker_value}};
    options.on_stderr = [](std::string_view) {};  // its start-up banner is noise here
    // Once its stdin is closed the server still waits for its timers (task
    // lifetimes, a roots request sent late) before it exits: stop it sooner
    // than the default 2 s grace.
    options.exit_grace = 500ms;
    co_return spawn_process(ex, std::move(options));
  }
  http_client_options options;
  options.mode = transport() == everything_transport::legacy_sse ? http_mode::legacy_sse : http_mode::streamable;
  auto url = server_->url();
  co_return co_await connect_http(ex, std::move(url), std::move(options));
}

asio::awaitable<initialize_result> everything_test::connect(client& c) {
  auto connection = co_await open_transport();
  auto opened = co_await c.connect(std::move(connection));
  // Behind the gateway, a session's child may still be starting (node takes
  // up to a second on a loaded machine), and the session's first request
  // waits for it: the tests, some of which time their calls, begin once the
  // child has answered (tools/list goes upstream; ping the gateway answers).
  if (transport() == everything_transport::gateway) co_await c.request("tools/list");
  co_return opened;
}

std::vector<std::string> texts(const call_tool_result& result) {
  std::vector<std::string> out;
  for (const auto& block : result.content)
    if (block_type(block) == "text") out.emplace_back(block.at("text").as_string());
  return out;
}

std::string block_type(const json::value& block) { return std::string(block.at("type").as_string()); }

}  // namespace mcp::test
