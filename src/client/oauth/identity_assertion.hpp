#pragma once
// Enterprise-managed authorization (ext-auth
// specification/draft/enterprise-managed-authorization.mdx, SEP-990), its
// first half: the token exchange at the enterprise identity provider.

#include "../../transport/http/client/fetch.hpp"

#include <mcp/client/oauth.hpp>

#include <boost/asio/awaitable.hpp>

#include <string>

namespace mcp::detail::oauth {

/// Exchanges the user's identity assertion at the identity provider
/// (RFC 8693; section 4) for an Identity Assertion JWT Authorization Grant
/// for the authorization server `audience` (its issuer) and the resource
/// `resource`, with `scope` when not empty. Throws oauth_error with the
/// provider's reason, or when it answers anything but an ID-JAG.
boost::asio::awaitable<std::string> request_identity_grant(http_client::http_fetcher& fetcher,
                                                           const identity_provider_options& provider,
                                                           std::string audience, std::string resource,
                                                           std::string scope);

}  // namespace mcp::detail::oauth
