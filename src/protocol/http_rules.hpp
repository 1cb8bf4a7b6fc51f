#pragma once
// MCP's rules for messages over HTTP (basic/transports) that both sides
// share: which requests a POST body holds, which era a POST belongs to, the
// MCP-Protocol-Version a server refuses, and the routing headers of a
// 2026-07-28 request (a client writes them, a server checks them). Pure
// functions on JSON and header values: the HTTP code on either side reads
// and writes the headers.

#include <mcp/protocol/versions.hpp>

#include <boost/container/small_vector.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail {

/// The requests a body (a message or a batch) holds.
struct body_summary {
  // JSON texts of their ids (the key replies are routed by): mostly one, kept in place.
  boost::container::small_vector<std::string, 1> request_ids;
  bool initialize = false;  ///< one of them is `initialize`
};
body_summary summarize(const boost::json::value& body);

/// Why a legacy request's MCP-Protocol-Version header is refused: a version
/// this build does not know (absent is fine).
std::optional<std::string> unknown_version_refusal(std::string_view version_header);

/// Whether a POST belongs to the 2026-07-28 era: a single message whose
/// `_meta` carries the envelope, the modern probe `server/discover`, or a
/// modern MCP-Protocol-Version header (a request that then lacks its
/// envelope is refused on the modern path, -32602).
bool is_modern_post(std::string_view version_header, const boost::json::value& body);

/// Whether a server's SSE streams open with a priming event (an event id
/// and empty data, so that a client can resume one that ends at once):
/// 2025-11-25 on.
bool primes_sse_streams(protocol_version version) noexcept;

/// The routing headers of a 2026-07-28 request (basic/transports, "Request
/// Metadata"): MCP-Protocol-Version, Mcp-Method, and for tools/call,
/// prompts/get and resources/read Mcp-Name, Base64-encoded as
/// `=?base64?...?=` when it is not a plain header value. None for a request
/// without a protocol version in its `_meta`.
std::vector<std::pair<std::string, std::string>> routing_headers(const boost::json::object& request);
/// The same for a request given by its method and params before it is
/// written; `version`: its envelope's protocol version when the envelope is
/// not in `params` (empty: the one `params` names, if any).
std::vector<std::pair<std::string, std::string>> routing_headers(std::string_view method,
                                                                 const boost::json::object& params,
                                                                 std::string_view version);

/// The routing headers a request came with, as received (empty: absent).
struct received_routing_headers {
  std::string_view protocol_version;
  std::string_view method;
  std::string_view name;
};

/// Why the routing headers of a modern request do not match its body, if
/// they do not: the message and `data` of a HeaderMismatch error (-32020). A
/// body without a protocol version is left to the engine, which refuses its
/// envelope.
struct header_mismatch {
  std::string message;
  boost::json::object data;
};
std::optional<header_mismatch> check_routing_headers(const received_routing_headers& received,
                                                     const boost::json::object& request);

}  // namespace mcp::detail
