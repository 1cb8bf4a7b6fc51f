// caduceus: a command-line MCP client, and `serve-demo`. See docs/cli.md.
//
//   caduceus [--json] (--url URL | --stdio 'CMD ARGS') COMMAND [ARGS]
//   caduceus serve-demo [--stdio | --http [HOST:]PORT]
//   caduceus gateway (--stdio 'CMD ARGS' | --url URL) [--http [HOST:]PORT]

#include "arguments.hpp"
#include "console.hpp"
#include "failure.hpp"
#include "gateway/gateway.hpp"
#include "log_options.hpp"
#include "progress_bar.hpp"
#include "serve_demo.hpp"
#include "session.hpp"

#include <mcp/log.hpp>
#include <mcp/version.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
  using namespace caduceus;
  try {
    const auto inv = parse_arguments(argc, argv);
    if (inv.help) {
      std::cout << usage_text();
      return exit_ok;
    }
    if (inv.version) {
      std::cout << "caduceus " << mcp::version_string << " (library " << mcp::library_version() << ")\n";
      return exit_ok;
    }
    // The SDK's own diagnostics would add lines to our one-line failures:
    // off for the commands unless CADUCEUS_LOG or --log-level turns them on.
    if (!inv.serve_demo && !inv.gateway && !std::getenv("CADUCEUS_LOG")) mcp::set_sdk_log_level(mcp::log_level::off);
    apply_log_options(inv);
    if (inv.serve_demo) return serve_demo(inv);
    if (inv.gateway) return run_gateway(inv);


    progress_bar bar(stderr_is_terminal());  // outlives the io_context and what runs on it
    boost::asio::io_context io(1);
    int exit_code = exit_failure;
    boost::asio::co_spawn(io, run_session(inv, bar), [&](std::exception_ptr failure, int code) {
      exit_code = failure ? report_failure(failure) : code;
      io.stop();  // whatever is left in the background (a child that will not exit) is not waited for
    });
    io.run();
    return exit_code;
  } catch (...) {
    return report_failure(std::current_exception());
  }
}
