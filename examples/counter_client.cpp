// counter-client: the model of a client. It spawns counter-server as a child
// process, shows the handshake, lists the tools and calls one a few times.
//
//   build/bin/counter-client [SERVER-COMMAND...]   (default: counter-server beside this binary)

#include <mcp/client/client.hpp>
#include <mcp/transport/process.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <filesystem>
#include <iostream>

namespace asio = boost::asio;
namespace json = boost::json;

namespace {

asio::awaitable<void> demo(mcp::process_options server) {
  mcp::client_options options;
  options.client_info = {"counter-client", "1.0.0"};
  // The counter lives in the session: the 2026-07-28 era has none, so this
  // client asks for a legacy one.
  options.versions.assign(mcp::legacy_versions().begin(), mcp::legacy_versions().end());
  mcp::client client(co_await asio::this_coro::executor, options);
  std::cout << "spawning: " << server.command << "\n";
  auto transport = mcp::spawn_process(co_await asio::this_coro::executor, server);
  const auto hello = co_await client.connect(std::move(transport));
  std::cout << "connected to " << hello.server_info.name << " " << hello.server_info.version
            << ", protocol " << mcp::to_string(hello.version) << "\n"
            << "server capabilities: " << json::serialize(hello.capabilities) << "\n";

  const auto tools = co_await client.list_tools();
  for (const auto& tool : tools) std::cout << "tool " << tool.name << ": " << tool.description << "\n";

  for (bool increment : {true, true, false}) {
    json::object arguments{{"increment", increment}};
    const auto result = co_await client.call_tool("counter", std::move(arguments));
    std::cout << "call counter {\"increment\": " << std::boolalpha << increment << "} -> "
              << result.text_content() << "\n";
  }
  co_await client.ping();
  std::cout << "ping ok\n";
  co_await client.close();
  std::cout << "closed\n";
}

}  // namespace

int main(int argc, char** argv) {
  mcp::process_options server;
  if (argc > 1) {
    server.command = argv[1];
    server.args.assign(argv + 2, argv + argc);
  } else {
    server.command = (std::filesystem::path(argv[0]).parent_path() / "counter-server").string();
  }
  asio::io_context io;
  int exit_code = 0;
  asio::co_spawn(io, demo(server), [&](std::exception_ptr failure) {
    if (!failure) return;
    exit_code = 1;
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      std::cerr << "counter-client: " << e.what() << "\n";
    }
  });
  io.run();
  return exit_code;
}
