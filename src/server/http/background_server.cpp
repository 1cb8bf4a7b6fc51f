// background_http_server: the built-in listener on threads of its own, with
// a watchdog for handlers that ignore their cancellation; and
// run_http_server, which serves with one until SIGINT or SIGTERM.

#include "endpoint_impl.hpp"

#include <mcp/log.hpp>
#include <mcp/server/background_http_server.hpp>
#include <mcp/server/http_server.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>

#include <condition_variable>
#include <csignal>
#include <mutex>
#include <thread>
#include <vector>

namespace mcp {

struct background_http_server::impl {
  impl(server_behaviour& behaviour, http_server_options options) {
    const auto threads = options.threads = threads_of(options);
    const bool secure = !options.tls_certificate_file.empty();
    const auto host = options.host;
    const auto path = options.path;
    io = std::make_unique<asio::io_context>(static_cast<int>(threads));
    server = std::make_unique<http_server>(io->get_executor(), behaviour, std::move(options));
    url = std::string(secure ? "https" : "http") + "://" + host + ":" + std::to_string(server->local_port()) + path;
    asio::co_spawn(*io, server->run(), [this](std::exception_ptr failure) {
      const std::lock_guard lock(ending);
      failed = static_cast<bool>(failure);
      run_returned = true;
      ended.notify_all();
    });
    // Once run() returns, what is left (connections closing) gets a moment;
    // work that outlives it (a handler that ignores its cancellation, a
    // client that reads nothing) would keep io.run() going: the watchdog
    // stops it.
    watchdog = std::thread([this] {
      std::unique_lock lock(ending);
      ended.wait(lock, [this] { return run_returned || threads_returned; });
      if (!ended.wait_for(lock, http_endpoint::impl::abandon_after, [this] { return threads_returned; })) {
        abandoned = true;
        io->stop();
      }
    });
    for (unsigned i = 0; i < threads; ++i) workers.emplace_back([this] { io->run(); });
  }

  http_run_result wait() {
    if (!joined) {
      for (auto& worker : workers) worker.join();
      {
        const std::lock_guard lock(ending);
        threads_returned = true;
        ended.notify_all();
      }
      watchdog.join();
      joined = true;
    }
    const bool left_running = abandoned && server->session_count() != 0;
    return {failed ? 1 : 0, left_running};
  }

  // On the heap: when handlers outlive the shutdown, both are left to them.
  std::unique_ptr<asio::io_context> io;
  std::unique_ptr<http_server> server;
  std::string url;
  std::mutex ending;
  std::condition_variable ended;
  bool run_returned = false, threads_returned = false, abandoned = false, failed = false;
  bool joined = false;  // (wait() is called by the program's thread only)
  std::vector<std::thread> workers;
  std::thread watchdog;
};

background_http_server::background_http_server(server_behaviour& behaviour, http_server_options options)
    : impl_(std::make_unique<impl>(behaviour, std::move(options))) {}

background_http_server::~background_http_server() {
  if (!impl_->joined) impl_->server->stop();
  if (impl_->wait().handlers_left_running) {
    // Handlers still run: they use their sessions and (from a worker thread)
    // this io_context, so neither may be destroyed under them.
    sdk_log(log_category::server, log_level::error, "handlers that ignore cancellation are still running");
    (void)impl_->server.release();
    (void)impl_->io.release();
  }
}

std::uint16_t background_http_server::port() const { return impl_->server->local_port(); }

const std::string& background_http_server::url() const { return impl_->url; }

asio::any_io_executor background_http_server::get_executor() const { return impl_->io->get_executor(); }

std::size_t background_http_server::session_count() const { return impl_->server->session_count(); }

void background_http_server::stop() { impl_->server->stop(); }

http_run_result background_http_server::wait() { return impl_->wait(); }

http_run_result run_http_server(server_behaviour& behaviour, http_server_options options,
                                std::function<void(std::string_view url)> on_listening) {
  const auto drain_seconds = std::chrono::duration<double>(options.shutdown_timeout).count();
  background_http_server server(behaviour, std::move(options));
  // Signals on an io_context of this thread's: the server's threads serve.
  // Listening for them before the URL goes out: a script may signal us as
  // soon as it reads it.
  asio::io_context signalled(1);
  asio::signal_set signals(signalled, SIGINT, SIGTERM);
  std::function<void(const boost::system::error_code&, int)> on_signal;
  int signals_seen = 0;
  on_signal = [&](const boost::system::error_code& ec, int) {
    if (ec) return;
    // The first signal drains (calls in flight finish within shutdown_timeout),
    // a second one cancels them at once.
    if (++signals_seen == 1) {
      sdk_log(log_category::server, log_level::info, "shutting down; a second signal stops at once",
              {{"drain_seconds", drain_seconds}});
      signals.async_wait(on_signal);
    }
    server.stop();
  };
  signals.async_wait(on_signal);
  if (on_listening) on_listening(server.url());
  // This thread waits for signals until the server has stopped, by one or by
  // itself (it failed): then the wait is cancelled.
  http_run_result result;
  std::thread waiter([&] {
    result = server.wait();
    asio::post(signalled, [&signals] { signals.cancel(); });
  });
  signalled.run();
  waiter.join();
  return result;  // the server's destructor leaves it to handlers still running
}

}  // namespace mcp
