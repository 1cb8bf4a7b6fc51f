#pragma once
// What a resource server fetches from its authorization server: the
// issuer's metadata (RFC 8414, then OpenID Connect discovery), documents by
// URL, with the https-only rule.

#include "../transport/http/client/fetch.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth::detail {

namespace asio = boost::asio;
using mcp::detail::http_client::http_fetcher;

/// Throws std::invalid_argument unless `url` is https (or http with `allow_http`).
void require_secure_url(std::string_view url, bool allow_http, std::string_view what);

/// Where an issuer's metadata may be, in the order tried: RFC 8414
/// (`/.well-known/oauth-authorization-server` inserted before the issuer's
/// path), then OpenID Connect discovery (inserted, then appended).
std::vector<std::string> metadata_urls(std::string_view issuer);

/// The first metadata document found for `issuer` whose `issuer` is exactly
/// it. Throws std::runtime_error when none is (unreachable, not JSON,
/// another issuer).
asio::awaitable<boost::json::object> fetch_issuer_metadata(http_fetcher& fetcher, std::string issuer,
                                                           bool allow_http);

/// A GET whose answer must be 200 JSON; throws std::runtime_error otherwise.
asio::awaitable<std::string> fetch_document(http_fetcher& fetcher, std::string url);

}  // namespace mcp::auth::detail
