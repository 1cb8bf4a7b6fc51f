// weather-client: a typed client. It spawns typed-tool, calls its `forecast`
// tool with a struct and gets a struct back: the result's structuredContent,
// checked against the tool's outputSchema.
//
//   build/bin/weather-client [SERVER-COMMAND]   (default: typed-tool beside this binary)

#include <mcp/client/client.hpp>
#include <mcp/transport/process.hpp>

#include "weather.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <filesystem>
#include <iostream>

namespace asio = boost::asio;

asio::awaitable<void> run(mcp::process_options server) {
  auto ex = co_await asio::this_coro::executor;
  mcp::client client(ex);
  co_await client.connect(mcp::spawn_process(ex, server));
  const weather::forecast_args args{"Paris", weather::units::celsius, 3};
  const auto f = co_await client.call_tool_as<weather::forecast>("forecast", args);
  std::cout << f.summary << ", " << f.low << " to " << f.high << " degrees\n";
  co_await client.close();
}

int main(int argc, char** argv) {
  mcp::process_options server;
  server.command = argc > 1 ? argv[1] : (std::filesystem::path(argv[0]).parent_path() / "typed-tool").string();
  asio::io_context io;
  int status = 0;
  asio::co_spawn(io, run(server), [&](std::exception_ptr failure) {
    if (!failure) return;
    try {
      std::rethrow_exception(failure);
    } catch (const std::exception& e) {
      std::cerr << "weather-client: " << e.what() << "\n";
      status = 1;
    }
  });
  io.run();
  return status;
}
