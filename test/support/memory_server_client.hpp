#pragma once
// A high-level server served on one end of a memory pair and a client
// connected on the other: for tests of what passes between them.

#include <mcp/client/client.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "test_support.hpp"

#include <boost/asio/co_spawn.hpp>

#include <functional>

namespace mcp::test {

/// A tool's description with only its name (and a description) set.
inline tool_info tool_named(std::string name) {
  tool_info info;
  info.name = std::move(name);
  info.description = "a tool";
  return info;
}

/// Serves `srv` on one end of a memory pair, connects a client with
/// `options` on the other (set up by `prepare` before it connects: its
/// handlers), runs `body`, then closes the client and waits for the server's
/// session to end. What `body` throws fails the test, after the closing.
inline void serve_and_connect(mcp::server_behaviour& srv, client_options options,
                              std::function<void(mcp::client&)> prepare,
                              std::function<asio::awaitable<void>(mcp::client&)> body) {
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto [client_end, server_end] = make_memory_pair(ex);
    bool served = false;
    asio::co_spawn(ex, serve(srv, *server_end), [&](std::exception_ptr) { served = true; });
    mcp::client c(ex, options);
    prepare(c);
    co_await c.connect(std::move(client_end));
    std::exception_ptr failure;
    try {
      co_await body(c);
    } catch (...) {
      failure = std::current_exception();
    }
    co_await c.close();
    while (!served) co_await sleep_for(std::chrono::milliseconds(5));
    if (failure) std::rethrow_exception(failure);
  });
}

using server_client_body = std::function<asio::awaitable<void>(mcp::server&, mcp::client&)>;

/// serve_and_connect with an mcp::server set up by `setup`.
inline void with_server_and_client(std::function<void(mcp::server&)> setup, client_options options,
                                   std::function<void(mcp::client&)> prepare, server_client_body body) {
  mcp::server srv({"observed", "1.0"});
  setup(srv);
  serve_and_connect(srv, std::move(options), std::move(prepare), [&](mcp::client& c) { return body(srv, c); });
}

inline void with_server_and_client(std::function<void(mcp::server&)> setup, client_options options,
                                   server_client_body body) {
  with_server_and_client(std::move(setup), std::move(options), [](mcp::client&) {}, std::move(body));
}

}  // namespace mcp::test
