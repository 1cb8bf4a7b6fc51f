#pragma once
// The client: connects over any transport, negotiates the protocol version,
// and multiplexes any number of requests over the one connection.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/versions.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

enum class connection_state { disconnected, connecting, initializing, ready };

struct client_options {
  implementation client_info{"caduceus", "0.1.0"};
  json::object capabilities = {};
  /// Versions we accept; `initialize` offers the newest of them.
  std::vector<protocol_version> versions{legacy_versions().begin(), legacy_versions().end()};
  /// Per-request timeout unless a call says otherwise; progress resets it.
  std::chrono::milliseconds request_timeout{30'000};
  /// The most any request may take, progress or not.
  std::chrono::milliseconds max_request_timeout{600'000};
  std::size_t max_queued_bytes = 16 * 1024 * 1024;
  std::chrono::milliseconds write_timeout{30'000};
};

struct progress_update {
  double progress = 0;
  std::optional<double> total;
  std::string message;
};

struct call_options {
  std::optional<std::chrono::milliseconds> timeout;  ///< default: client_options::request_timeout
  /// When set, the request asks for progress and each update lands here.
  std::function<void(const progress_update&)> on_progress;
};

/// A connection to one MCP server.
///
/// Every request has a deadline; when it passes, or when the awaiting
/// coroutine is cancelled, the client sends `notifications/cancelled` and
/// ignores any late reply. Errors: `mcp::protocol_error` for a JSON-RPC error
/// reply; `boost::system::system_error` with `asio::error::timed_out`,
/// `operation_aborted` (cancelled) or `connection_aborted` (connection gone).
///
/// @par Thread safety
/// Not thread safe: use it from its executor (a strand with several threads).
class client {
 public:
  explicit client(asio::any_io_executor ex);
  /// (Not a defaulted argument: `client c(co_await this_coro::executor)` must
  /// not create an aggregate temporary; see docs/compilers.md.)
  client(asio::any_io_executor ex, client_options options);
  ~client();
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// Takes the transport, starts reading, and performs the handshake: sends
  /// `initialize`, checks the version the server chose, sends `initialized`.
  asio::awaitable<initialize_result> connect(std::unique_ptr<message_transport> transport);

  connection_state state() const noexcept;
  /// The server's `initialize` result; valid once connected.
  const initialize_result& server() const;

  // Each call comes with and without `call_options`. There are no defaulted
  // option arguments on purpose: g++ 12 destroys an aggregate temporary twice
  // when it appears in an expression that suspends (see docs/compilers.md),
  // and a defaulted `call_options` would be exactly such a temporary.

  /// Any request; returns the result object.
  asio::awaitable<json::object> request(std::string method, json::object params = {});
  asio::awaitable<json::object> request(std::string method, json::object params,
                                        call_options options);
  asio::awaitable<void> notify(std::string method, json::object params = {});

  asio::awaitable<void> ping();
  asio::awaitable<void> ping(call_options options);
  /// One page of `tools/list`; pass the previous page's `nextCursor` for the next.
  asio::awaitable<json::object> list_tools(std::optional<std::string> cursor = std::nullopt);
  asio::awaitable<json::object> list_tools(std::optional<std::string> cursor, call_options options);
  /// `tools/call`; returns the raw result (content, isError, structuredContent).
  asio::awaitable<json::object> call_tool(std::string name, json::object arguments = {});
  asio::awaitable<json::object> call_tool(std::string name, json::object arguments,
                                          call_options options);

  /// Every notification from the server (progress ones too).
  void on_notification(std::function<void(const notification&)> handler);

  /// Ends the connection (for a child process: stdin closed, then signals).
  asio::awaitable<void> close();

 private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

}  // namespace mcp
