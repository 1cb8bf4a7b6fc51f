#pragma once
// What the HTTP client transport must know of the messages it carries, asked
// of the layer that knows their protocol: the transport itself knows neither
// JSON-RPC nor MCP (test/layers). connect_http (src/client/connect_http.cpp)
// binds MCP's rules in. Requests are named by the JSON text of their ids
// (`7`, `"abc"`), as frame_context names them.

#include <mcp/transport/http_client.hpp>

#include <boost/container/small_vector.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail::http_client {

/// What a frame to send holds.
struct outgoing_facts {
  outgoing_facts() {}  // not an aggregate (docs/compilers.md)
  /// The requests whose answers the transport reads back (mostly one, kept in place).
  boost::container::small_vector<std::string, 1> requests;
  /// It opens a new session: sent without the headers of the old one.
  bool opens_session = false;
  /// It completes the session's handshake: the GET stream may open.
  bool session_ready = false;
  /// Requests whose answers are no longer wanted.
  std::vector<std::string> cancelled;
  /// Headers that route the frame on their own, outside any session: a frame
  /// with them carries no session headers.
  http_fields routing_headers;
};

/// What a received body or event holds.
struct received_facts {
  received_facts() {}
  bool valid = false;                 ///< a message the transport may deliver
  std::vector<std::string> answered;  ///< the requests it answers
  bool error_without_id = false;      ///< an error answer that names no request
};

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
