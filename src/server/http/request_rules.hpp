#pragma once
// The header rules of the MCP HTTP transports that need no server state:
// content negotiation, DNS-rebinding protection, and what a POST body holds.

#include "connection_io.hpp"

#include <boost/container/small_vector.hpp>
#include <boost/json/object.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

/// Whether `Accept` admits `type` (an absent header admits everything).
bool accepts(const http_request& req, std::string_view type);

/// A client that lists text/event-stream before application/json prefers a
/// stream even for a quick answer.
bool prefers_event_stream(const http_request& req);

/// Why `Host` or `Origin` is refused, if it is: on loopback only localhost
/// names and `allowed_hosts` may be the Host; an Origin must be a localhost
/// one or listed in `allowed_origins`.
std::optional<std::string> origin_refusal(const http_request& req, bool loopback_only,
                                          const std::vector<std::string>& allowed_hosts,
                                          const std::vector<std::string>& allowed_origins);

/// Why a POST's body is not taken: the status and JSON-RPC error to answer.
struct body_refusal {
  boost::beast::http::status status;
  int code;
  std::string message;
};
/// A POST's body as JSON; `refused` set (415 unless the Content-Type is
/// application/json, 400 -32700 when it does not parse) when it is not taken.
/// Returned, not assigned: a parsed value keeps its own storage only when
/// moved into a new value (assigning would copy it).
boost::json::value read_json_body(const http_request& req, std::optional<body_refusal>& refused);

/// What routing needs to know of a POST body (the engine parses it proper).
struct body_summary {
  // JSON texts of the ids of its requests: mostly one, kept in place.
  boost::container::small_vector<std::string, 1> request_ids;
  bool initialize = false;
};
body_summary summarize(const boost::json::value& body);

/// Why a legacy request's MCP-Protocol-Version is refused: a version this
/// build does not know.
std::optional<std::string> unknown_version_refusal(const http_request& req);

/// Whether a POST belongs to the 2026-07-28 era: a single message whose
/// `_meta` carries the envelope, the modern probe `server/discover`, or a
/// modern MCP-Protocol-Version header (a request that then lacks its
/// envelope is refused on the modern path, -32602).
bool is_modern_post(const http_request& req, const boost::json::value& body);

/// Why the routing headers of a modern request (MCP-Protocol-Version,
/// Mcp-Method, Mcp-Name) do not match its body, if they do not: the message
/// and `data` of a HeaderMismatch error (-32020). A header may carry its
/// value Base64-encoded as `=?base64?...?=`. A body without a protocol
/// version is left to the engine, which refuses its envelope.
struct header_mismatch {
  std::string message;
  boost::json::object data;
};
std::optional<header_mismatch> check_routing_headers(const http_request& req,
                                                     const boost::json::object& request);

}  // namespace mcp::detail
