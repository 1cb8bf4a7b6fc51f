#pragma once
// A request as the MCP server serves it: the raw HTTP request
// (transport/http/server), the headers the server reads of it, and who sent
// it. The raw HTTP layer knows HTTP only: which headers matter (MCP's
// session, version and routing headers among them) and who the sender is (the
// OAuth gate's business, auth_gate.cpp) are this layer's, kept beside the
// request for as long as it is served.

#include "../../transport/http/server/http_request.hpp"

#include <mcp/auth/principal.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

class listen_stream;

/// The headers the server reads; found as they arrive (request_reader).
enum class known_header : std::uint8_t {
  accept,
  content_type,
  host,
  origin,
  mcp_session_id,
  mcp_protocol_version,
  last_event_id,
  mcp_method,
  mcp_name,
  traceparent,  // W3C trace context
  tracestate,
  count_  // not a header
};
static_assert(static_cast<std::size_t>(known_header::count_) <= http_request::max_slots);

/// The slot of a known header (its known_header value), for request_reader.
std::optional<std::size_t> known_header_slot(http::field field, std::string_view name) noexcept;

struct served_request : http_request {
  /// What the channel it came through says, for all its requests: it came
  /// to a loopback address (the Host rule, request_rules.hpp), and the
  /// `scheme://authority` its client reached (empty: the OAuth resource's).
  bool loopback = false;
  std::string public_origin;
  /// Who sent it, once the OAuth gate has checked its token.
  std::shared_ptr<const auth::principal> principal;
  /// The token came with the DPoP scheme (RFC 9449), not Bearer.
  bool dpop = false;
  /// What the http.request event reports of the body, noted only while
  /// someone listens (http_telemetry.hpp): the method of its (first)
  /// message, and the trace id of that message's `_meta.traceparent`.
  std::string mcp_method;
  std::string meta_trace_id;
  /// The connection's next owner, once the request has opened a
  /// subscriptions/listen stream (listen_stream.hpp): the server hands the
  /// connection over to it instead of reading another request.
  std::shared_ptr<listen_stream> taken_over;

  /// Forgets the sender and what was noted, before the connection's next request.
  void forget_previous() noexcept {
    principal.reset();
    dpop = false;
    mcp_method.clear();
    meta_trace_id.clear();
    taken_over.reset();
  }
};

}  // namespace mcp::detail
