// civetweb-server: an application that already serves HTTP with CivetWeb
// adds MCP to it. Its own handlers stay as they are (`/health` here); the MCP
// endpoint is mounted beside them, and runs on an io_context of its own.
//
//   build/bin/civetweb-server [PORT]     (127.0.0.1; 0 or none: a free port)
//
// It prints the MCP endpoint's URL, then serves until SIGINT or SIGTERM.

#include <mcp/adapters/civetweb.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <civetweb.h>

#include <csignal>
#include <iostream>
#include <string>
#include <thread>

struct echo_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

int main(int argc, char** argv) {
  // The signals are waited for here (sigwait), not by a handler: blocked
  // before any thread starts, so that every thread inherits it.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  mcp::server srv({"civetweb-app", "1.0.0"});
  srv.add_tool("echo", "Echoes the text back", [](const echo_args& a) { return a.text; });

  // The endpoint's own thread: CivetWeb's workers wait on it, never run it.
  boost::asio::io_context io(1);
  auto work = boost::asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  mcp::http_endpoint_options options;
  options.threads = 1;
  // CivetWeb tells of a client gone only when a write to it fails: a
  // keep-alive comment every 5 s frees an abandoned stream within 10 s.
  options.keep_alive_interval = std::chrono::seconds(5);
  mcp::http_endpoint endpoint(io.get_executor(), srv, options);

  const std::string listening = "127.0.0.1:" + std::string(argc > 1 ? argv[1] : "0");
  const char* settings[] = {"listening_ports", listening.c_str(),
                            // Each open SSE stream holds a worker thread: room for streams and requests.
                            "num_threads", "32",
                            // Above keep_alive_interval: an idle stream's writes come sooner.
                            "request_timeout_ms", "60000", "enable_keep_alive", "yes",
                            // A response goes out in several writes: without this, Nagle's
                            // algorithm holds the last one for the client's delayed ACK (40 ms).
                            "tcp_nodelay", "1", nullptr};
  mg_init_library(0);
  mg_callbacks callbacks{};
  mg_context* ctx = mg_start(&callbacks, nullptr, settings);
  if (!ctx) {
    std::cerr << "civetweb-server: cannot listen on " << listening << "\n";
    return 1;
  }
  mg_set_request_handler(
      ctx, "/health$",
      [](mg_connection* conn, void*) {
        mg_send_http_ok(conn, "text/plain", 2);
        mg_write(conn, "ok", 2);
        return 200;
      },
      nullptr);
  mcp::adapters::mount(ctx, endpoint);

  mg_server_port port{};
  mg_get_server_ports(ctx, 1, &port);
  std::cout << "http://127.0.0.1:" << port.port << "/mcp" << std::endl;

  int signal = 0;
  sigwait(&stop_signals, &signal);
  endpoint.stop();  // its streams end first, so that they free their worker threads
  mg_stop(ctx);     // once its threads are done, nothing calls the endpoint
  endpoint.async_stop(boost::asio::use_future).get();
  work.reset();
  io_thread.join();
  mg_exit_library();
}
