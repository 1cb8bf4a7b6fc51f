#pragma once
// What the HTTP client transport needs to know about the JSON-RPC messages
// it carries (without parsing them for the client): which requests a frame
// holds, which answers a body or event holds, and the error answers it makes
// up when an HTTP exchange fails.

#include <mcp/protocol/jsonrpc.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail::http_client {

/// The code of the error answers the transport makes up (JSON-RPC's range of
/// implementation-defined server errors).
inline constexpr int transport_error_code = -32000;

struct outgoing_facts {
  outgoing_facts() {}  // not an aggregate (docs/compilers.md)
  std::vector<request_id> requests;   ///< the requests in the frame
  bool initialize = false;            ///< one of them is `initialize`
  bool initialized = false;           ///< it is `notifications/initialized`
  /// Requests it cancels (`notifications/cancelled`), as JSON text ids.
  std::vector<std::string> cancelled;
  /// A 2026-07-28 request: the version of its `_meta` envelope (empty for a
  /// legacy message), its method, and the name or URI it names
  /// (tools/call, prompts/get: `params.name`; resources/read: `params.uri`),
  /// which go into its routing headers.
  std::string protocol_version;
  std::string method;
  std::string name;
};

/// The routing headers of a 2026-07-28 request (basic/transports,
/// "Request Metadata"): MCP-Protocol-Version, Mcp-Method, and Mcp-Name,
/// Base64-encoded as `=?base64?...?=` when it is not a plain header value.
std::vector<std::pair<std::string, std::string>> routing_headers(const outgoing_facts& facts);

/// Reads an outgoing frame (a message or a batch). Text that is not JSON holds no requests.
outgoing_facts inspect_outgoing(std::string_view frame);

struct inbound_facts {
  inbound_facts() {}
  bool valid = false;                 ///< well-formed JSON (UTF-8)
  std::vector<std::string> answered;  ///< ids (JSON text) of the responses in it
  bool error_without_id = false;      ///< a lone error response with a null id
};

/// Reads a received body or event.
inbound_facts inspect_inbound(std::string_view text);

/// An error answer to `id`: code -32000, `data` as given.
std::string error_answer(const request_id& id, std::string message, json::value data);

/// The answer to `id` when its POST got the HTTP error `status`: the body's
/// JSON-RPC error (code and message) when it has one, else -32000; the message
/// names the request and the status; `data.httpStatus` holds it. With a
/// `session_id`, a 404 says the session expired (`data.sessionExpired`).
std::string http_status_answer(const request_id& id, std::string_view request, unsigned status,
                               std::string_view reason, std::string_view body, std::string_view session_id);

/// A lone error response with a null id, given `id` instead.
std::string with_id(std::string_view text, const request_id& id);

}  // namespace mcp::detail::http_client
