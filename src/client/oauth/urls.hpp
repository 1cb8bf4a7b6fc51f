#pragma once
// The URLs of OAuth discovery and of the authorization request: canonical
// resource identifiers (RFC 8707), the well-known locations of RFC 9728 and
// RFC 8414 / OpenID Connect Discovery, form encoding, and query parameters.

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mcp::detail::oauth {

using form = std::vector<std::pair<std::string, std::string>>;

/// Throws oauth_error when `url` is not an absolute http(s) URL with a host.
void require_http_url(std::string_view url, std::string_view what);

/// The MCP server's canonical URI: scheme and host in lower case, no
/// fragment, no lone trailing slash (`https://mcp.example.com/mcp`).
std::string canonical_resource(std::string_view url);

/// `scheme://authority` of an absolute URL.
std::string origin_of(std::string_view url);

/// Where a server's Protected Resource Metadata may be, in the order to try:
/// the path-suffixed form (when the URL has a path), then the root.
std::vector<std::string> protected_resource_metadata_urls(std::string_view server_url);

/// Where an authorization server's metadata may be, in the order to try:
/// RFC 8414 then OpenID Connect with the path inserted, then OpenID
/// Connect with it appended (a path-less issuer: the first two).
std::vector<std::string> authorization_server_metadata_urls(std::string_view issuer);

/// Whether metadata naming `resource` may serve the server at `server_url`:
/// the same origin, and its path a prefix (by segments) of the server's.
bool resource_covers(std::string_view resource, std::string_view server_url);

/// application/x-www-form-urlencoded.
std::string form_encode(const form& fields);

/// `url` with `fields` added to its query.
std::string with_query(std::string_view url, const form& fields);

/// The decoded query parameters of `url` (the first of repeated ones).
std::map<std::string, std::string> query_of(std::string_view url);

/// A Location header resolved against the URL of the request it answers.
std::string resolve_reference(std::string_view base, std::string_view reference);

/// Whether the URL uses https, or http to a loopback address (127.0.0.0/8,
/// [::1], localhost).
bool is_https(std::string_view url);
bool is_loopback(std::string_view url);

/// Throws oauth_error naming `what` unless `url` is https, or http to a
/// loopback address when `allow_http_loopback` (OAuth 2.1 section 1.5: an
/// authorization server's endpoints are https).
void require_https(std::string_view url, bool allow_http_loopback, std::string_view what);

}  // namespace mcp::detail::oauth
