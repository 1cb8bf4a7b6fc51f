#pragma once
// Where the HTTP server records its sessions. A session's engine lives in the
// process that serves it, but the record of what its handshake settled lives
// here: a process that gets a request for a session it does not hold looks
// the session up and serves it from the record (with a store shared between
// processes, a load balancer need not be sticky).

#include <mcp/export.hpp>
#include <mcp/server/store_error.hpp>

#include <mcp/server/serve.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mcp {

namespace asio = boost::asio;

/// What a session store keeps of one session.
struct MCP_API session_record {
  std::string id;  ///< The session's id (the `Mcp-Session-Id` header's value).
  /// Unset until `initialize` has been answered.
  std::optional<negotiated_session> negotiated = std::nullopt;
  /// With OAuth, the identity of the principal that opened the session
  /// (auth::principal::identity): only it may use the session.
  std::string owner = {};
  /// The session's state that follows it to every server
  /// (session::state<T>() of a described T, and the log level), by key.
  json::object state = {};
  /// Counts the changes of `state` (save_state): a server whose copy of
  /// the session has seen another version loads it again.
  std::uint64_t state_version = 0;
};

/// What refresh() tells a server that serves a session already.
struct MCP_API session_refresh {
  /// The record's state_version now.
  std::uint64_t state_version = 0;
  /// The record's whole state, when state_version is not the one the
  /// server said it had seen; unset when it is.
  std::optional<json::object> state = std::nullopt;
};

/// Keeps session records, each expiring after `ttl` without a `touch`.
///
/// @par Thread safety
/// Called from every thread that serves HTTP; implementations synchronise.
class MCP_API session_store {
 public:
  virtual ~session_store() = default;

  /// Creates or replaces a record; it expires `ttl` from now.
  virtual asio::awaitable<void> put(session_record record, std::chrono::seconds ttl) = 0;
  /// The record, its expiry pushed to `ttl` from now; nullopt when the
  /// session is unknown, ended or expired.
  virtual asio::awaitable<std::optional<session_record>> touch(std::string id,
                                                               std::chrono::seconds ttl) = 0;
  /// Whether the record still exists (and has not expired), without touching it.
  virtual asio::awaitable<bool> alive(std::string id) = 0;
  /// Ends a session (DELETE, or idle expiry).
  virtual asio::awaitable<void> remove(std::string id) = 0;
  /// Sets these keys of the record's `state` (the others stay) and counts
  /// a new state_version; nothing when the record is gone. A store that
  /// one server only uses need not keep state (the default).
  virtual asio::awaitable<void> save_state(std::string id, json::object changes) {
    (void)id, (void)changes;
    co_return;
  }
  /// touch() for a server that serves the session already, asked on each
  /// of its requests: the same expiry pushed back, and whether the session
  /// lives (nullopt when it is unknown, ended or expired), but not the
  /// record it knows. Of the state, only its version, and the state itself
  /// only when that version is not `known_state_version`. The default
  /// calls touch(); a store kept elsewhere overrides it to read less (the
  /// Redis store reads one number).
  virtual asio::awaitable<std::optional<session_refresh>> refresh(std::string id, std::chrono::seconds ttl,
                                                                  std::uint64_t known_state_version);
};

/// A session store in this process's memory.
MCP_API std::shared_ptr<session_store> make_memory_session_store();

}  // namespace mcp
