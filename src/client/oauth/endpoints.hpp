#pragma once
// Requests to an authorization server's endpoints: dynamic registration
// (RFC 7591) and the token endpoint (authorization_code, refresh_token and
// client_credentials grants), with the client authentication both sides
// support.

#include "wire.hpp"

#include "../../transport/http/client/fetch.hpp"

#include <mcp/client/oauth.hpp>

#include <boost/asio/awaitable.hpp>

#include <string>
#include <utility>
#include <vector>

namespace mcp::detail::oauth {

class signing_key;

/// The DPoP key a token request binds its token to (RFC 9449 section 5),
/// and where the authorization server's latest nonce is kept.
struct dpop_binding {
  const signing_key* key = nullptr;  ///< null: no DPoP
  std::string* nonce = nullptr;
};

/// The client's credentials at one authorization server.
struct client_identity {
  std::string client_id;
  std::string client_secret;
  std::string auth_method;  ///< none, client_secret_basic, client_secret_post, private_key_jwt
  std::string private_key_pem;
  std::string signing_algorithm;
};

/// The token endpoint authentication for a client with a secret and/or a
/// key, given what the server supports (RFC 8414: client_secret_basic when it
/// says nothing). Throws oauth_error when they share none.
std::string choose_auth_method(const authorization_server_metadata& server, bool has_secret, bool has_key);

/// Registers a client (RFC 7591) named by `options`, with these redirect
/// URIs and grant types. Throws oauth_error with the server's reason.
boost::asio::awaitable<client_identity> register_client(http_client::http_fetcher& fetcher,
                                                        const authorization_server_metadata& server,
                                                        const oauth_options& options,
                                                        std::vector<std::string> redirect_uris,
                                                        std::vector<std::string> grant_types);

/// POSTs a token request of `grant` fields, authenticated as `client`, and
/// reads the token; with a DPoP key, with a proof, asked again once with the
/// server's nonce when it wants one (`use_dpop_nonce`). Throws oauth_error
/// with the server's error and reason.
boost::asio::awaitable<token_response> request_token(http_client::http_fetcher& fetcher,
                                                     const authorization_server_metadata& server,
                                                     const client_identity& client,
                                                     std::vector<std::pair<std::string, std::string>> grant,
                                                     dpop_binding dpop = {});

}  // namespace mcp::detail::oauth
