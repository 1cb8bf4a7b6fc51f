#pragma once
// Two test servers sharing a session store and an event store, and with a
// message bus if asked, as the processes of a cluster do (docs/scale-out.md),
// in one process: the memory stores stand for a shared database.

#include "http_test_server.hpp"

#include <functional>

namespace mcp::test {

struct server_pair {
  /// `bus`: the servers share a message bus too (live streams, answers,
  /// server-wide notifications); else only the stores.
  server_pair(asio::any_io_executor ex, http_server_options options, bool bus)
      : a(ex, shared(options, ex, bus)), b(ex, options) {}

  // Gives `options` the stores both servers share.
  static http_server_options shared(http_server_options& options, asio::any_io_executor ex, bool bus) {
    options.sessions = make_memory_session_store();
    options.events = make_memory_event_store();
    if (bus) options.bus = make_memory_message_bus(ex);
    return options;
  }

  test_server a;
  test_server b;
};

/// run_test with a server_pair, both stopped (and their sessions awaited)
/// however the body ends.
inline void run_pair_test(http_server_options options, bool bus,
                          std::function<asio::awaitable<void>(server_pair&)> body) {
  run_test([&]() -> asio::awaitable<void> {
    server_pair servers(co_await asio::this_coro::executor, options, bus);
    std::exception_ptr failure;
    try {
      co_await body(servers);
    } catch (...) {
      failure = std::current_exception();
    }
    co_await servers.a.stop_and_wait();
    co_await servers.b.stop_and_wait();
    if (failure) std::rethrow_exception(failure);
  });
}

}  // namespace mcp::test
