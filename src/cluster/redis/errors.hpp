#pragma once
// The two ways a Redis command fails, kept apart: Redis could not be reached
// or did not answer in time (`unavailable`: try later, answer 503), or Redis
// answered with an error reply (`error_reply`: the command was wrong).

#include <mcp/server/store_error.hpp>

#include <stdexcept>
#include <string>

namespace mcp::detail::redis {

/// Why Redis was not available to a command.
enum class unavailable_reason {
  not_connected,    ///< no connection (Redis down, or the address or credentials are wrong)
  timed_out,        ///< no reply within the command timeout
  connection_lost,  ///< the connection failed while the command waited for its reply
  overloaded,       ///< too many commands or bytes in flight on the connection
  closed,           ///< the connection was closed by its owner
};

/// Redis could not be reached or did not answer in time. The command may or
/// may not have run. A store_unavailable, so that the HTTP server answers 503.
class unavailable : public store_unavailable {
 public:
  unavailable(unavailable_reason reason, const std::string& message)
      : store_unavailable(message), reason_(reason) {}
  unavailable_reason reason() const noexcept { return reason_; }

 private:
  unavailable_reason reason_;
};

/// Redis answered with an error reply ("WRONGTYPE ...", "NOSCRIPT ..."):
/// thrown when such a reply is used as a value (reply::as_integer() and the
/// like). what() is the error text Redis sent.
class error_reply : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mcp::detail::redis
