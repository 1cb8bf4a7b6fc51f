#pragma once
// What the HTTP client transport must know of the messages it carries, asked
// of the layer that knows their protocol: the transport itself knows neither
// JSON-RPC nor MCP (test/layers). connect_http (src/client/connect_http.cpp)
// binds MCP's rules in. Requests are named by the JSON text of their ids
// (`7`, `"abc"`), as frame_context names them.

#include "frame_facts.hpp"

#include <string>
#include <string_view>

namespace mcp::detail::http_client {

class message_binding {
 public:
  virtual ~message_binding() = default;

  /// Reads a frame to send (one parse at most).
  virtual outgoing_facts inspect_outgoing(std::string_view frame) const = 0;
  /// Reads a received body or event.
  virtual received_facts inspect_inbound(std::string_view text) const = 0;

  /// The error frame that answers `request` when the exchange carrying it
  /// failed for the reason `message` says.
  virtual std::string failure_answer(std::string_view request, std::string message) const = 0;
  /// The error frame that answers `request` when `exchange` (method and
  /// URL) got the HTTP error `status` with `reason` and `body`; `session_id`:
  /// the session it went in, if any.
  virtual std::string http_status_answer(std::string_view request, std::string_view exchange, unsigned status,
                                         std::string_view reason, std::string_view body,
                                         std::string_view session_id) const = 0;
  /// `answer` (an error that names no request) made to name `request`.
  virtual std::string with_id(std::string_view answer, std::string_view request) const = 0;
};

}  // namespace mcp::detail::http_client
