#pragma once
// Where an HTTP client transport sends its requests: the URL it was given,
// split into what a connection needs (host, port, TLS) and what a request
// needs (target, Host header); and the legacy `endpoint` event's URI,
// resolved against the SSE URL.

#include <string>
#include <string_view>

namespace mcp::detail::http_client {

struct http_endpoint {
  bool tls = false;
  std::string host;         ///< to resolve, for SNI and certificate checks (IPv6 without brackets)
  std::string port;         ///< a number, defaulted from the scheme
  std::string host_header;  ///< `host[:port]` as the URL spells it
  std::string target;       ///< origin-form: `/path?query`
  std::string url;          ///< the whole URL (without a fragment), for messages

  /// `scheme://host:port` in lower case: what must match for the same origin.
  std::string origin() const;
};

/// Parses an absolute http or https URL. Throws std::invalid_argument when it
/// is not one, has no host, or carries user info (credentials belong in headers).
http_endpoint parse_endpoint(std::string_view url);

/// The URI of a legacy `endpoint` event, resolved against the SSE URL. Throws
/// std::invalid_argument when it is not a URI reference or names another
/// origin (a server must not send the client's messages elsewhere).
http_endpoint resolve_endpoint(const http_endpoint& base, std::string_view reference);

}  // namespace mcp::detail::http_client
