#pragma once
// The failure of a store shared between servers (sessions, events, the
// message bus) to reach what backs it.

#include <mcp/export.hpp>
#include <mcp/error.hpp>

#include <boost/system/errc.hpp>

#include <string>

namespace mcp {

/// Thrown by a shared store or bus that cannot reach its backend (Redis is
/// down, or slower than its deadline): the HTTP server answers the request
/// that needed it with 503 and this message, and serves again once the
/// backend is back. Code: boost::system::errc::resource_unavailable_try_again.
class MCP_API store_unavailable : public error {
 public:
  /// `message` is the whole of what() (no code prefix).
  explicit store_unavailable(std::string message)
      : error(make_error_code(boost::system::errc::resource_unavailable_try_again), std::move(message),
              whole_message{}) {}
};

}  // namespace mcp
