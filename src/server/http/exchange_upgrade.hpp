#pragma once
// A WebSocket upgrade served through an exchange (exchange.cpp): the
// endpoint accepts the upgrade request, answers the application with an
// http_upgrade (http_endpoint_response::upgrade), and waits, on the
// exchange's strand, for the application to hand its connection over
// (http_upgrade::async_run, from any thread). The connection then carries
// the WebSocket session; when the exchange ends, the connection is let go
// and the application told so.

#include <mcp/server/http_endpoint.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <memory>
#include <mutex>

namespace mcp::detail {

class upgrade_handoff : public std::enable_shared_from_this<upgrade_handoff> {
 public:
  explicit upgrade_handoff(asio::any_io_executor strand);

  /// The application's handle on the upgrade (what the response carries).
  std::shared_ptr<http_upgrade> handle();

  /// On the strand: the connection, once the application hands it over.
  /// Throws system_error: operation_aborted when the application dropped
  /// the handle, timed_out at `deadline`.
  asio::awaitable<upgraded_stream*> connection(std::chrono::steady_clock::time_point deadline);

  /// The exchange is over (`ec`: why the session never began, or none):
  /// the connection is let go, then the application's async_run completes.
  /// Once; a connection handed over later is refused with operation_aborted.
  void finish(boost::system::error_code ec);

 private:
  class handle_impl;

  void give(std::unique_ptr<upgraded_stream> stream,
            boost::asio::any_completion_handler<void(boost::system::error_code)> handler);
  void drop();

  const asio::any_io_executor strand_;
  asio::steady_timer wake_;  // on the strand: cancelled when the application gives or drops

  std::mutex mutex_;
  std::unique_ptr<upgraded_stream> stream_;
  boost::asio::any_completion_handler<void(boost::system::error_code)> done_;
  bool dropped_ = false;  // the handle went without a connection
  bool over_ = false;     // finish() came
};

}  // namespace mcp::detail
