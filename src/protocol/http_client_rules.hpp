#pragma once
// What an MCP client over HTTP knows of the JSON-RPC frames it carries
// (without parsing them for the client): which requests a frame to send
// holds and how it is routed, which answers a received body or event holds,
// and the error answers it makes up when an HTTP exchange fails. Request ids
// are their JSON text (`7`, `"abc"`), as transports name them. Pure
// functions: the HTTP client transport asks them through the binding
// client/connect_http.cpp gives it.

#include "http_rules.hpp"

#include <mcp/protocol/errors.hpp>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

/// The code of the error answers an HTTP client makes up (JSON-RPC's range
/// of implementation-defined server errors).
inline constexpr int http_failure_code = -32000;

struct outgoing_facts {
  outgoing_facts() {}  // not an aggregate (docs/compilers.md)
  body_summary requests;  ///< the requests in the frame; whether one is `initialize`
  bool initialized = false;  ///< it is `notifications/initialized`
  /// Requests it cancels (`notifications/cancelled`), as JSON text ids.
  std::vector<std::string> cancelled;
  /// A single 2026-07-28 request's routing headers (routing_headers); empty
  /// for anything else, which goes within the session.
  std::vector<std::pair<std::string, std::string>> routing_headers;
};

/// Reads a frame to send (a message or a batch). Text that is not JSON holds no requests.
outgoing_facts inspect_outgoing(std::string_view frame);

struct inbound_facts {
  inbound_facts() {}
  bool valid = false;                 ///< well-formed JSON (UTF-8)
  std::vector<std::string> answered;  ///< ids of the responses in it
  bool error_without_id = false;      ///< a lone error response with a null id
};

/// Reads a received body or event.
inbound_facts inspect_inbound(std::string_view text);

/// An error answer to `id`: code -32000, no `data`.
std::string error_answer(std::string_view id, std::string message);

/// The answer to `id` when its POST got the HTTP error `status`: the body's
/// JSON-RPC error (code and message) when it has one, else -32000; the message
/// names the request and the status; `data.httpStatus` holds it. With a
/// `session_id`, a 404 says the session expired (`data.sessionExpired`).
std::string http_status_answer(std::string_view id, std::string_view request, unsigned status,
                               std::string_view reason, std::string_view body, std::string_view session_id);

/// Whether an error answer says the server forgot the session (an answer
/// http_status_answer made of a 404): the client opens a new one.
bool says_session_expired(const rpc_error& error) noexcept;

/// A lone error response with a null id, given `id` instead.
std::string with_id(std::string_view text, std::string_view id);

}  // namespace mcp::detail
