#pragma once
// The bridge of the SDK's own log lines to MCP clients
// (server_options::log_to_clients): a line tied to a session (its
// `session_id` field names it) goes to that session's client as
// `notifications/message`, at or above the level the client asked for
// (logging/setLevel, or a listen request's logLevel), as
// request_context::log sends a handler's messages.
//
// Lines of some categories stay local: `transport` (they are about the very
// channel the bridge would use: a notification that cannot be delivered is
// logged in transport, so it never comes back to the bridge), `client` (a
// client in the same process) and `access`. And what the bridge itself
// causes to be logged while it runs is not bridged again.

#include <mcp/server/context.hpp>

#include "../detail/log_observer.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace mcp::detail {

class log_bridge {
 public:
  log_bridge();
  log_bridge(const log_bridge&) = delete;
  log_bridge& operator=(const log_bridge&) = delete;

  /// The session's client hears its lines from now on (behaviour init()).
  void add(session& s);
  /// ... until now (behaviour terminate()).
  void remove(const session& s);

 private:
  struct sessions {
    std::mutex mutex;
    std::map<std::string, std::weak_ptr<session>, std::less<>> by_id;
  };
  static void forward(sessions& known, const log_record& record);

  std::shared_ptr<sessions> sessions_ = std::make_shared<sessions>();
  log_observer observer_;  // last: detached first
};

}  // namespace mcp::detail
