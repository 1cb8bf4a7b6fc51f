#pragma once
// The failure of a store shared between servers (sessions, events, the
// message bus) to reach what backs it.

#include <stdexcept>

namespace mcp {

/// Thrown by a shared store or bus that cannot reach its backend (Redis is
/// down, or slower than its deadline): the HTTP server answers the request
/// that needed it with 503 and this message, and serves again once the
/// backend is back.
class store_unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mcp
