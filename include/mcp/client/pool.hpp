#pragma once
// A pool of connections to one MCP server, for an application that makes
// many calls at once and must not stop when one connection does.

#include <mcp/export.hpp>
#include <mcp/client/client.hpp>

#include <cstddef>
#include <functional>
#include <memory>

namespace mcp {

/// How many connections a client_pool keeps, and their options.
struct MCP_API pool_options {
  std::size_t size = 4;  ///< clients in the pool; at least 1
  /// Options of every connection. Their reconnect.max_attempts is ignored:
  /// a pooled connection that ends is replaced for as long as the pool runs.
  client_options client = {};
};

/// `size` clients connected to one server through the same transport_factory.
/// Calls go round-robin to the clients that are ready. A connection that ends
/// fails only the calls that were waiting on it; the client reconnects in the
/// background (paced by client.reconnect) while calls go on over the others.
///
///   mcp::client_pool pool(ex, [ex] { return mcp::connect_http(ex, url); }, options);
///   co_await pool.connect();
///   auto result = co_await pool.next().call_tool("echo", args);
///
/// @par Thread safety
/// Not thread safe: use it from its executor, like the clients it holds.
class MCP_API client_pool {
 public:
  /// Makes the clients, not connected yet. Throws mcp::invalid_argument
  /// when `options.size` is 0.
  client_pool(asio::any_io_executor ex, transport_factory factory, pool_options options);
  /// Starts close() in the background: nothing reconnects after it, and the
  /// clients close (close() is the way to wait for them).
  ~client_pool();
  client_pool(const client_pool&) = delete;
  client_pool& operator=(const client_pool&) = delete;

  /// Prepares every client (callbacks, handlers, roots); call before connect.
  void for_each(const std::function<void(client&)>& prepare);

  /// Connects every client at once. Returns when all are connected, or once
  /// at least one is and the others failed their first attempt (they keep
  /// trying in the background). Throws the first failure when none connects.
  /// Cancellation: ends the wait with operation_aborted; the first attempts
  /// go on in the background (a client that connects is ready for next()),
  /// but one that fails is not tried again.
  asio::awaitable<void> connect();

  /// The next ready client, round-robin; when none is ready, the next one in
  /// turn (its calls wait for it to reconnect, within their timeout).
  client& next();

  /// How many clients it holds, ready or not (pool_options::size).
  std::size_t size() const noexcept;
  /// The executor it was made with.
  asio::any_io_executor executor() const noexcept;
  /// How many clients are ready now.
  std::size_t ready() const noexcept;

  /// Closes every client; nothing reconnects after it. Cancellation: the
  /// pool's own retries of first connections stop at once; the clients are
  /// closed one after the other, and a cancellation ends the wait at the one
  /// being closed (client::close() says what that leaves): those not closed
  /// yet stay connected, reconnecting by themselves. Call close() again to
  /// finish.
  asio::awaitable<void> close();

  /// connect() and close() with a completion token (as client::async_...),
  /// completing with void(std::exception_ptr); cancellation as theirs, any
  /// type on the token's slot counting as terminal.
  template <class CompletionToken>
  auto async_connect(CompletionToken&& token) {
    return detail::async_run(connect(), executor(), std::forward<CompletionToken>(token));
  }
  /// close() with a completion token, completing with void(std::exception_ptr).
  template <class CompletionToken>
  auto async_close(CompletionToken&& token) {
    return detail::async_run(close(), executor(), std::forward<CompletionToken>(token));
  }

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace mcp
