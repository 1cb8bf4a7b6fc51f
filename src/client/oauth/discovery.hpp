#pragma once
// Finding the authorization server of a protected MCP server (spec:
// basic/authorization, "Authorization Server Discovery"), and what it offers.

#include "challenge.hpp"
#include "wire.hpp"

#include "../../transport/http/client/fetch.hpp"

#include <boost/asio/awaitable.hpp>

#include <optional>
#include <string>

namespace mcp::detail::oauth {

struct discovery {
  discovery() {}  // not an aggregate: it crosses co_await (docs/compilers.md)
  /// The `resource` to ask tokens for: the metadata's, or the server's own URL.
  std::string resource;
  std::optional<protected_resource_metadata> resource_metadata;  ///< none: a 2025-03-26 server
  std::string issuer;
  authorization_server_metadata server;
  bool server_metadata_found = false;  ///< false: the 2025-03-26 default endpoints
};

/// Reads the server's Protected Resource Metadata (the challenge's
/// `resource_metadata`, else the well-known path and root URLs), refusing
/// metadata whose `resource` does not cover `server_url`; then the metadata of
/// its first authorization server, refusing a document whose `issuer` is not
/// the one its URL was made from. A server without resource metadata is a
/// 2025-03-26 one: its origin is the authorization server, with metadata at
/// its root or else /authorize, /token and /register there. The
/// authorization server must be https (or http on loopback when
/// `allow_http_loopback`) before anything is asked of it. Throws
/// oauth_error saying what is missing or wrong.
boost::asio::awaitable<discovery> discover(http_client::http_fetcher& fetcher, std::string server_url,
                                           token_challenge challenge, bool allow_http_loopback);

/// Reads an authorization server's metadata from the well-known URLs its
/// issuer gives, in order; std::nullopt when none has any. Throws oauth_error
/// for a document whose issuer differs, unless `any_issuer` (the 2025-03-26
/// discovery, where the issuer is not known beforehand: the server's origin
/// only says where to look).
boost::asio::awaitable<std::optional<authorization_server_metadata>> read_server_metadata(
    http_client::http_fetcher& fetcher, std::string issuer, bool any_issuer = false);

/// GETs `url` as JSON; std::nullopt when it answers anything but 200 with a
/// JSON object of type T. Throws http_error when it cannot be reached.
template <class T>
boost::asio::awaitable<std::optional<T>> fetch_document(http_client::http_fetcher& fetcher, std::string url);

}  // namespace mcp::detail::oauth
