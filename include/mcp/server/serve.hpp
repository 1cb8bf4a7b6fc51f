#pragma once
// Runs a server behaviour on a transport.

#include <mcp/export.hpp>
#include <mcp/server/behaviour.hpp>
#include <mcp/transport/transport.hpp>

#include <mcp/protocol/lifecycle.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mcp {

/// What a handshake settles, and all a server needs to go on serving a
/// session without one.
struct MCP_API negotiated_session {
  protocol_version version = latest_legacy_version;  ///< The revision agreed on.
  implementation client_info = {};                    ///< The client's `clientInfo`.
  json::object client_capabilities = {};              ///< The client's declared `capabilities`.
};

/// How one session is served: its limits, its timeouts, and what the HTTP
/// server sets to serve it without a handshake or across servers.
struct MCP_API session_options {
  /// Requests of one session served at once; reading pauses beyond it.
  std::size_t max_requests_in_flight = 256;
  /// Bytes of replies and notifications queued for a slow reader before
  /// handlers that send more wait. Over HTTP, where they never wait, an SSE
  /// stream whose reader falls this far behind is cut off instead: its
  /// connection ends and the client resumes it from the event store.
  std::size_t max_queued_bytes = 16 * 1024 * 1024;
  /// A write the client does not take within this time closes the connection.
  std::chrono::milliseconds write_timeout{30'000};
  /// After the client ends its input, requests still running get this long to
  /// finish (their replies are still delivered); then they are cancelled.
  std::chrono::milliseconds drain_timeout{10'000};
  /// Serve without a handshake, as if `initialize` had settled this: for
  /// stateless HTTP (every request stands alone, the client's capabilities
  /// are unknown, so requests to the client are refused) and for a session
  /// a session store recorded earlier, perhaps in another process.
  std::optional<negotiated_session> assume_initialized = std::nullopt;
  /// Called once `initialize` has been served, with what it settled; its
  /// answer goes out when this returns, or an error when it throws. (The
  /// HTTP server records the session in its session store, so that the
  /// client's next request finds it on any server that shares the store.)
  std::function<asio::awaitable<void>(negotiated_session)> on_initialized = nullptr;
  /// The session's shared state as a session store keeps it
  /// (session_record::state), read in as the session starts: a session
  /// resumed from the store gets the described states and the log level a
  /// copy of it elsewhere saved.
  json::object shared_state = {};
  /// Saves what a request changed of the session's shared state (session::
  /// state<T>() of a described T, the log level) before the request's answer
  /// goes out; a failure answers the request with an error instead. Set by
  /// the HTTP server when servers share its session store.
  std::function<asio::awaitable<void>(json::object changes)> save_state = nullptr;
  /// Signs the `requestState` of 2026-07-28 multi-round requests
  /// (HMAC-SHA256), so that a client cannot forge or alter it. Servers that
  /// share clients (behind a load balancer) must share the key
  /// (configured_request_state_key). Empty: a random key made once per
  /// process.
  std::string request_state_key = {};
  /// A `requestState` older than this is refused: the client starts over.
  std::chrono::seconds request_state_ttl{600};
};

/// Serves one connection until the client ends it or the awaiting coroutine
/// is cancelled (bind a cancellation slot to it to shut down). A `terminal`
/// cancellation cancels the requests in flight and closes the transport; a
/// `total` one stops reading and lets them finish within
/// `session_options::drain_timeout` first (their replies still go out),
/// which a later `terminal` one cuts short.
///
/// Runs on the transport's executor; with several threads on one io_context,
/// give the transport a strand.
MCP_API asio::awaitable<void> serve(server_behaviour& behaviour, message_transport& transport);
/// As above, with options. (Not a defaulted argument: see docs/compilers.md.)
MCP_API asio::awaitable<void> serve(server_behaviour& behaviour, message_transport& transport,
                            session_options options);

/// Serves `behaviour` over this process's stdin and stdout until the client
/// closes stdin or SIGINT/SIGTERM arrives. On the first signal it stops
/// reading and lets the requests in flight finish within
/// `options.drain_timeout` (their replies still go out); a second signal
/// cancels them and exits at once. Returns the process exit code.
MCP_API int run_stdio_server(server_behaviour& behaviour, session_options options = {});

/// A requestState key from its text: hexadecimal digits, at least 64 (32
/// bytes), surrounding whitespace ignored. Throws mcp::invalid_argument
/// saying what is wrong (never echoing the key).
MCP_API std::string parse_request_state_key(std::string_view hex);

/// The requestState key a server process is configured with: the hex text
/// of `key_file` when it is not empty, else the environment variable
/// CADUCEUS_REQUEST_STATE_KEY when set, else empty (a random key of the
/// process's own, which only suits a single process). Throws
/// mcp::invalid_argument for an unreadable file or a malformed key.
MCP_API std::string configured_request_state_key(const std::string& key_file);

}  // namespace mcp
