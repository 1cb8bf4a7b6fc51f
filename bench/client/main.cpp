// bench-client: our MCP client calling `tools/call echo` under load
// (options.hpp says how to run it), measured and checked as bench-loadgen
// measures servers: a warm-up, a window bounded in time and count, then a
// grace period after which the clients are closed and what is unanswered is
// an error.

#include "clients.hpp"
#include "echo_calls.hpp"
#include "options.hpp"

#include "../loadgen/run_result.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <csignal>
#include <iostream>
#include <string>
#include <utility>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

// The generator's line, with its own CPU named for what it is here: the client's.
std::string client_json_line(const loadgen::run_result& result, std::string_view protocol) {
  json::object line = json::parse(loadgen::to_json_line(result)).as_object();
  line["client_cpu_us_each"] = line["loadgen_cpu_us_each"];
  line["client_busy"] = line["loadgen_busy"];
  line.erase("loadgen_cpu_us_each");
  line.erase("loadgen_busy");
  line["protocol"] = protocol;
  return json::serialize(line);
}

}  // namespace

int main(int argc, char** argv) {
  bench_client::options options;
  try {
    options = bench_client::parse_options(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "bench-client: " << e.what() << " (see bench/client/options.hpp)\n";
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);
  asio::io_context io;
  const auto ex = io.get_executor();
  loadgen::load_run run(ex, options.limits, options.server_pid);
  std::unique_ptr<bench_client::clients> clients;
  std::string failure, protocol;
  bool closing = false;  // at the grace deadline, or when the last caller ended: once
  const auto close_clients = [&] {
    if (std::exchange(closing, true)) return;
    asio::co_spawn(ex, clients->close(), asio::detached);
  };
  asio::co_spawn(ex, [&]() -> asio::awaitable<void> {
    try {
      clients = co_await bench_client::clients::connect(ex, options);
    } catch (const std::exception& e) {
      failure = loadgen::describe(e);
      co_return;
    }
    protocol = clients->protocol();
    run.on_deadline(close_clients);
    run.start();
    bench_client::start_echo_calls(ex, *clients, options.window, run, close_clients);
  }, asio::detached);
  io.run();
  if (!clients) {
    std::cerr << "bench-client: could not connect: " << failure << "\n";
    return 1;
  }
  std::cout << client_json_line(run.result(), protocol) << std::endl;
  return 0;
}
