#pragma once
// Where a Redis server is and how long to wait for it: from a URL
// redis://[[user]:password@]host[:port][/db], plus the timeouts, the
// reconnection backoff and the bounds of a connection.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail::redis {

struct config {
  std::string host = "127.0.0.1";  ///< a name or an address (IPv6 without brackets)
  std::uint16_t port = 6379;
  /// AUTH after each connect: `AUTH password`, or `AUTH user password` with a user (Redis 6 ACLs).
  std::string user;
  std::optional<std::string> password;
  /// SELECT after each connect when not 0.
  int database = 0;
  /// Lua sources that each link loads (SCRIPT LOAD) in its greeting, before
  /// any command of its own: an EVALSHA sent without waiting for its reply
  /// (connection::send_eval) cannot fall back on EVAL, so its script must be
  /// known to every Redis it reaches, a restarted one too.
  std::vector<std::string> scripts;

  /// Resolving, connecting and the greeting (AUTH, SELECT, SCRIPT LOAD, PING), together.
  std::chrono::milliseconds connect_timeout{2000};
  /// From a command's call to its reply. Past it the command fails as
  /// unavailable and the connection is dropped and opened again (a Redis that
  /// does not answer its oldest command is stuck or unreachable). Blocking
  /// commands must block for less.
  std::chrono::milliseconds command_timeout{5000};
  /// The first wait before reconnecting; it doubles after each failed
  /// attempt up to backoff_max. Each wait is drawn from [w/2, w] (jitter, so
  /// that many processes do not reconnect in step).
  std::chrono::milliseconds backoff_initial{100};
  std::chrono::milliseconds backoff_max{2000};
  /// A subscriber PINGs Redis this often, to notice a connection that died
  /// without a word (the PING has command_timeout to be answered).
  std::chrono::milliseconds health_interval{5000};

  /// Commands of one connection queued or awaiting their replies (each
  /// command of a pipeline counts). Past it, new commands fail at once as
  /// unavailable (overloaded) instead of queueing without end.
  std::size_t max_in_flight = 65536;
  /// Bytes of commands formatted but not yet written; past it, likewise.
  std::size_t max_unwritten_bytes = 64 * 1024 * 1024;

  /// "host:port" (IPv6 in brackets), for messages.
  std::string endpoint() const;

  /// The config that `url` names, with the default timeouts and bounds.
  /// Throws std::invalid_argument saying what is wrong with it.
  static config from_url(std::string_view url);
};

}  // namespace mcp::detail::redis
