#pragma once
// Opaque (or any) access tokens checked by asking the authorization server
// (RFC 7662 token introspection), the resource server authenticating as an
// OAuth client (client_secret_basic or client_secret_post). Answers are
// cached by a SHA-256 of the token (never the token itself), in a bounded
// least-recently-used cache, each until the token expires or `cache_ttl`
// passes, whichever is first: a revoked token may work for up to `cache_ttl`.

#include <mcp/export.hpp>
#include <mcp/auth/token_verifier.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

namespace mcp::auth {

/// Settings of make_introspection_verifier().
struct MCP_API introspection_verifier_options {
  /// The defaults below.
  introspection_verifier_options() {}  // not an aggregate (docs/compilers.md)
  /// The introspection endpoint; empty: the `introspection_endpoint` of the
  /// issuer's metadata (then `issuer` is required).
  std::string endpoint;
  /// The authorization server: an answer's `iss`, when it has one, must be
  /// it; the principal's issuer.
  std::string issuer;
  /// This resource's identifier: the answer's `aud` must be, or contain, it.
  /// Required (RFC 8707: a token for another resource is refused).
  std::string audience;
  /// This server's own client credentials at the authorization server.
  std::string client_id;
  std::string client_secret;  ///< The secret that goes with client_id.
  /// How the credentials are sent (RFC 6749 §2.3.1).
  enum class client_authentication {
    basic,  ///< client_secret_basic: an `Authorization: Basic` header.
    post    ///< client_secret_post: `client_id` and `client_secret` in the form.
  };
  /// client_secret_basic (an Authorization header) or client_secret_post
  /// (in the form).
  client_authentication authentication = client_authentication::basic;
  std::size_t cache_size = 1000;       ///< answers cached, the least recently used dropped first; 0: none
  std::chrono::seconds cache_ttl{60};  ///< how long an answer (valid or not) is cached at most
  /// Clock skew allowed on `exp` and `nbf`.
  std::chrono::seconds leeway{60};
  std::string ca_file;      ///< PEM CA certificates to trust; empty: the system's
  bool allow_http = false;  ///< `http://` endpoints: for tests on loopback only
  /// Let the fetches connect to loopback, private and link-local addresses
  /// (an authorization server on your own network, tests on 127.0.0.1).
  /// Off: public addresses only (docs/security.md, SSRF).
  bool allow_private_addresses = false;
  std::chrono::milliseconds fetch_timeout{5000};  ///< each fetch (metadata, introspection): connect, then the whole answer
  std::chrono::seconds retry_after{5};  ///< for the 503 when the endpoint cannot be reached
};

/// A verifier that introspects tokens at the authorization server; runs on
/// `ex` (the HTTP server's, as http_auth_options::make_verifier gets it).
/// Throws mcp::invalid_argument without an audience, with neither endpoint
/// nor issuer, or for an endpoint not `https://` (`http://` with allow_http).
MCP_API std::shared_ptr<token_verifier> make_introspection_verifier(asio::any_io_executor ex,
                                                            introspection_verifier_options options);

}  // namespace mcp::auth
