// serve_mounted("httplib"): the endpoint mounted on a cpp-httplib
// server (mounted_server.hpp).

#include "endpoint_thread.hpp"
#include "mounted_server.hpp"

#include <mcp/adapters/httplib.hpp>

#include <boost/asio/use_future.hpp>

#include <iostream>
#include <thread>

int serve_mounted_in_httplib(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                             std::uint16_t port) {
  endpoint_thread runner;
  mcp::http_endpoint endpoint(runner.executor(), behaviour, options);
  httplib::Server http;
  http.new_task_queue = [] { return new httplib::ThreadPool(64); };  // the suite opens streams
  http.set_keep_alive_timeout(1);  // an idle connection holds its thread this long, also when stopping
  mcp::adapters::mount(http, endpoint);
  const int bound = port == 0 ? http.bind_to_any_port("127.0.0.1") : (http.bind_to_port("127.0.0.1", port) ? port : -1);
  if (bound < 0) {
    std::cerr << "cannot listen on port " << port << "\n";
    endpoint.async_stop(boost::asio::use_future).get();
    return 1;
  }
  std::thread signal_waiter([&] {
    runner.wait_for_stop_signal();
    endpoint.stop();  // its streams end first, so that they free their worker threads
    http.stop();
  });
  std::cout << "http://127.0.0.1:" << bound << "/mcp" << std::endl;
  http.listen_after_bind();
  endpoint.async_stop(boost::asio::use_future).get();
  signal_waiter.join();
  return 0;
}
