// httplib-server: an application that already serves HTTP with cpp-httplib
// adds MCP to it. Its own routes stay as they are (`/health` here); the MCP
// endpoint is mounted beside them, and runs on an io_context of its own.
//
//   build/bin/httplib-server [PORT]     (127.0.0.1; 0 or none: a free port)
//
// It prints the MCP endpoint's URL, then serves until SIGINT or SIGTERM.

#include <mcp/adapters/httplib.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <csignal>
#include <iostream>
#include <string>
#include <thread>

struct echo_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

int main(int argc, char** argv) {
  // The signals are waited for by a thread of their own (sigwait), not by a
  // handler: blocked here, before any thread starts, so that every thread inherits it.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  mcp::server srv({"httplib-app", "1.0.0"});
  srv.add_tool("echo", "Echoes the text back", [](const echo_args& a) { return a.text; });

  // The endpoint's own thread: cpp-httplib's workers wait on it, never run it.
  boost::asio::io_context io(1);
  auto work = boost::asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  mcp::http_endpoint_options options;
  options.threads = 1;
  mcp::http_endpoint endpoint(io.get_executor(), srv, options);

  httplib::Server http;
  // Each open SSE stream holds a worker thread: room for streams and requests.
  http.new_task_queue = [] { return new httplib::ThreadPool(32); };
  // An idle keep-alive connection holds its thread until its next request or
  // this timeout (5 s by default), also when the server stops.
  http.set_keep_alive_timeout(1);
  http.Get("/health", [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });
  mcp::adapters::mount(http, endpoint);

  const int port = argc > 1 ? std::stoi(argv[1]) : 0;
  const int bound = port == 0 ? http.bind_to_any_port("127.0.0.1") : (http.bind_to_port("127.0.0.1", port) ? port : -1);
  if (bound < 0) {
    std::cerr << "httplib-server: cannot listen on port " << port << "\n";
    return 1;
  }
  std::thread signal_waiter([&http, &endpoint, &stop_signals] {
    int signal = 0;
    sigwait(&stop_signals, &signal);
    endpoint.stop();  // its streams end first, so that they free their worker threads
    http.stop();
  });
  std::cout << "http://127.0.0.1:" << bound << "/mcp" << std::endl;
  http.listen_after_bind();

  // Once the server's threads are done: every session has ended.
  endpoint.async_stop(boost::asio::use_future).get();
  work.reset();
  io_thread.join();
  signal_waiter.join();
}
