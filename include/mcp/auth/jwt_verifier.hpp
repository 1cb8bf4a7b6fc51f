#pragma once
// JWT access tokens (RFC 9068) verified with the issuer's published keys:
// the JWKS found through the issuer's metadata (RFC 8414
// `/.well-known/oauth-authorization-server`, then OpenID Connect discovery),
// fetched over HTTPS, cached, and fetched again when a token names a key id
// the cache does not have (key rotation), at most once per
// `min_refresh_interval`, one fetch at a time for every waiting request.

#include <mcp/export.hpp>
#include <mcp/auth/token_verifier.hpp>

#include <boost/asio/any_io_executor.hpp>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace mcp::auth {

/// Settings of make_jwt_verifier().
struct MCP_API jwt_verifier_options {
  /// The defaults below.
  jwt_verifier_options() {}  // not an aggregate (docs/compilers.md)
  /// The authorization server, exactly as its tokens' `iss` (and its
  /// metadata's `issuer`) spell it. Required.
  std::string issuer;
  /// This resource's identifier (RFC 8707: the MCP endpoint's URL): `aud`
  /// must be, or contain, it. Required.
  std::string audience;
  /// Where the keys are; empty: the `jwks_uri` of the issuer's metadata.
  std::string jwks_uri;
  /// The signature algorithms accepted. `none` and the HMAC ones are never
  /// accepted, whatever this says (a public key is not a shared secret).
  std::vector<std::string> algorithms = {"RS256", "RS384", "RS512", "PS256", "PS384",
                                         "PS512", "ES256", "ES384", "ES512"};
  /// RFC 9068 access tokens have `typ: at+jwt`; true also accepts `JWT` or
  /// none (providers that issue ID-token-shaped access tokens).
  bool accept_plain_jwt = false;
  /// Clock skew allowed on `exp`, `nbf` and `iat`.
  std::chrono::seconds leeway{60};
  /// An unknown key id fetches the keys again at most this often.
  std::chrono::seconds min_refresh_interval{30};
  /// Keys are fetched again after this long even without an unknown key id.
  std::chrono::seconds max_key_age{3600};
  /// PEM file of the CA certificates to trust; empty: the system's.
  std::string ca_file;
  /// Accept `http://` issuer and key URLs. Only for tests on loopback: keys
  /// fetched in clear text can be replaced by anyone on the path.
  bool allow_http = false;
  /// Let the metadata and key fetches connect to loopback, private and
  /// link-local addresses (an issuer on your own network, tests on
  /// 127.0.0.1). Off: public addresses only, whatever `jwks_uri` the
  /// metadata names (docs/security.md, SSRF).
  bool allow_private_addresses = false;
  /// Each fetch (connect, then the whole answer) within this.
  std::chrono::milliseconds fetch_timeout{5000};
  /// What a 503 tells the client when the keys cannot be fetched.
  std::chrono::seconds retry_after{5};
};

/// A verifier of JWT access tokens. Runs on `ex` (the HTTP server's
/// executor). Throws mcp::invalid_argument without an issuer or an audience,
/// or for an issuer or jwks_uri not `https://` (`http://` with allow_http).
MCP_API std::shared_ptr<token_verifier> make_jwt_verifier(asio::any_io_executor ex, jwt_verifier_options options);

}  // namespace mcp::auth
