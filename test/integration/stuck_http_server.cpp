// An HTTP server whose tools ignore their cancellation, for the shutdown
// tests (http_shutdown_test.cpp): `stuck` awaits a timer an hour away with
// cancellation disabled, `blocking` blocks a worker thread for an hour.
// Served by run_http_server on 127.0.0.1, a free port, one thread:
//
//   stuck-http-server SHUTDOWN_TIMEOUT_MS

#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

namespace asio = boost::asio;

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  mcp::server srv(mcp::implementation{"stuck-http-server", "1.0.0"});
  srv.add_tool("stuck", "Waits an hour, deaf to cancellation",
               [](mcp::request_context&) -> asio::awaitable<std::string> {
                 co_await asio::this_coro::reset_cancellation_state(asio::disable_cancellation());
                 asio::steady_timer timer(co_await asio::this_coro::executor, std::chrono::hours(1));
                 co_await timer.async_wait(asio::use_awaitable);
                 co_return "an hour later";
               });
  srv.add_tool("blocking", "Blocks its thread for an hour", [] {
    std::this_thread::sleep_for(std::chrono::hours(1));
    return std::string("an hour later");
  });
  mcp::http_server_options http;
  http.host = "127.0.0.1";
  http.port = 0;
  http.threads = 1;
  http.shutdown_timeout = std::chrono::milliseconds(std::stoi(argv[1]));
  // The first line of stdout is the endpoint: a caller that asked for port 0 reads it.
  const auto result = mcp::run_http_server(srv, http, [](std::string_view url) { std::cout << url << std::endl; });
  if (result.handlers_left_running) std::_Exit(result.exit_code);  // (they still use `srv`)
  return result.exit_code;
}
