#pragma once
// What an MCP client over HTTP knows of the JSON-RPC frames it carries
// (without parsing them for the client): which requests a frame to send
// holds and how it is routed, which answers a received body or event holds,
// and the error answers it makes up when an HTTP exchange fails. Request ids
// are their JSON text (`7`, `"abc"`), as transports name them. Pure
// functions: the HTTP client transport asks them through the binding
// client/connect_http.cpp gives it, and the facts they read are the
// transport's own plain structs (transport/http/client/frame_facts.hpp).

#include "http_rules.hpp"

#include "../transport/http/client/frame_facts.hpp"

#include <mcp/protocol/errors.hpp>

#include <string>
#include <string_view>

namespace mcp::detail {

/// The code of the error answers an HTTP client makes up (JSON-RPC's range
/// of implementation-defined server errors).
inline constexpr int http_failure_code = -32000;

/// Reads a frame to send (a message or a batch). Text that is not JSON holds no requests.
http_client::outgoing_facts inspect_outgoing(std::string_view frame);

/// Reads a received body or event.
http_client::received_facts inspect_inbound(std::string_view text);

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
