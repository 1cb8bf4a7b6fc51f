#pragma once
// The header rules of the MCP HTTP transports that need no server state and
// are HTTP's own: content negotiation, DNS-rebinding protection, and taking a
// POST body as JSON. MCP's rules on what the body holds and on its routing
// headers are protocol/http_rules.

#include "served_request.hpp"

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

/// Why `Host` or `Origin` is refused, if it is (DNS rebinding, docs/security.md):
/// on loopback the Host must be a localhost name or in `allowed_hosts`; on
/// any other address it must be in `allowed_hosts` when that is not empty
/// (an entry without a port admits any port; names in any case). An Origin
/// must be a localhost one or listed in `allowed_origins`.
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

}  // namespace mcp::detail
