// serve_mounted("httplib"): the endpoint mounted on a cpp-httplib
// server (mounted_server.hpp).

#include "mounted_server.hpp"

#include <mcp/adapters/httplib.hpp>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <csignal>
#include <iostream>
#include <thread>

int serve_mounted_in_httplib(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                             std::uint16_t port) {
  sigset_t stop_signals;  // waited for by a thread (sigwait), blocked in every thread
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  boost::asio::io_context io(1);
  auto work = boost::asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  mcp::http_endpoint endpoint(io.get_executor(), behaviour, options);
  httplib::Server http;
  http.new_task_queue = [] { return new httplib::ThreadPool(64); };  // the suite opens streams
  http.set_keep_alive_timeout(1);  // an idle connection holds its thread this long, also when stopping
  mcp::adapters::mount(http, endpoint);
  const int bound = port == 0 ? http.bind_to_any_port("127.0.0.1") : (http.bind_to_port("127.0.0.1", port) ? port : -1);
  if (bound < 0) {
    std::cerr << "cannot listen on port " << port << "\n";
    endpoint.async_stop(boost::asio::use_future).get();
    work.reset();
    io_thread.join();
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
  endpoint.async_stop(boost::asio::use_future).get();
  work.reset();
  io_thread.join();
  signal_waiter.join();
  return 0;
}
