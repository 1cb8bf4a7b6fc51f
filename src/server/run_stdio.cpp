#include <mcp/log.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/transport/stdio.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <functional>

namespace mcp {

int run_stdio_server(server_behaviour& behaviour, session_options options) {
  asio::io_context io(1);
  auto transport = make_stdio_transport(io.get_executor());
  asio::cancellation_signal stop;
  asio::signal_set signals(io, SIGINT, SIGTERM);
  // The first signal drains (serve() stops reading, the requests in flight
  // finish within the drain timeout); a second one stops at once.
  bool draining = false;
  std::function<void(const boost::system::error_code&, int)> on_signal;
  on_signal = [&](const boost::system::error_code& ec, int signal_number) {
    if (ec) return;
    if (!draining) {
      draining = true;
      sdk_log(log_category::server, log_level::info, "shutting down: requests in flight may finish",
              {{"signal", signal_number}});
      stop.emit(asio::cancellation_type::total);
      signals.async_wait(on_signal);
      return;
    }
    sdk_log(log_category::server, log_level::info, "shutting down now", {{"signal", signal_number}});
    stop.emit(asio::cancellation_type::terminal);
  };
  signals.async_wait(on_signal);
  int exit_code = 0;
  asio::co_spawn(io, serve(behaviour, *transport, options),
                 asio::bind_cancellation_slot(stop.slot(), [&](std::exception_ptr failure) {
                   signals.cancel();
                   if (!failure) return;
                   exit_code = 1;
                   try {
                     std::rethrow_exception(failure);
                   } catch (const std::exception& e) {
                     sdk_log(log_category::server, log_level::error, "server failed", {{"error", e.what()}});
                   }
                 }));
  io.run();
  return exit_code;
}

}  // namespace mcp
