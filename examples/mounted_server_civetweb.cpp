// serve_mounted("civetweb"): the endpoint mounted on a CivetWeb
// server (mounted_server.hpp).

#include "endpoint_thread.hpp"
#include "mounted_server.hpp"

#include <mcp/adapters/civetweb.hpp>

#include <boost/asio/use_future.hpp>

#include <civetweb.h>

#include <iostream>
#include <string>

int serve_mounted_in_civetweb(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                              std::uint16_t port) {
  endpoint_thread runner;
  mcp::http_endpoint endpoint(runner.executor(), behaviour, options);
  const auto listening = "127.0.0.1:" + std::to_string(port);
  const char* settings[] = {"listening_ports", listening.c_str(), "num_threads", "64",  // the suite opens streams
                            "request_timeout_ms", "60000", "enable_keep_alive", "yes",
                            "tcp_nodelay", "1", nullptr};  // (docs/embedding.md: Nagle's algorithm costs 40 ms)
  mg_init_library(0);
  mg_callbacks callbacks{};
  mg_context* ctx = mg_start(&callbacks, nullptr, settings);
  int exit_code = 1;
  if (!ctx) {
    std::cerr << "cannot listen on port " << port << "\n";
  } else {
    mcp::adapters::mount(ctx, endpoint);
    mg_server_port bound{};
    mg_get_server_ports(ctx, 1, &bound);
    std::cout << "http://127.0.0.1:" << bound.port << "/mcp" << std::endl;
    runner.wait_for_stop_signal();
    endpoint.stop();  // its streams end first, so that they free their worker threads
    mg_stop(ctx);
    exit_code = 0;
  }
  endpoint.async_stop(boost::asio::use_future).get();
  mg_exit_library();
  return exit_code;
}
