#pragma once
// Signing a client in to a protected MCP server (spec: basic/authorization,
// OAuth 2.1): an http_authorizer that answers the server's 401 by finding its
// authorization server, identifying the client there and getting a token,
// and a 403 `insufficient_scope` by asking again for more scopes.
//
//   auto auth = std::make_shared<mcp::oauth_client>(ex, mcp::oauth_options{...});
//   mcp::http_client_options http;
//   http.authorizer = auth;
//   auto transport = co_await mcp::connect_http(ex, url, http);
//
// On a 401 it reads the Protected Resource Metadata (RFC 9728: the URL in
// WWW-Authenticate, then the well-known path and root forms), checks that it
// names this server, reads the authorization server's metadata (RFC 8414 and
// OpenID discovery, path-suffixed issuers, the issuer checked against the
// URL), with the 2025-03-26 fallbacks when there is none. The client is
// identified by, in this order: pre-registered credentials, a Client ID
// Metadata Document URL when the server supports them, dynamic registration
// (RFC 7591). Then authorization code with PKCE S256, `state`, `resource`
// (RFC 8707) and the RFC 9207 `iss` check, or client_credentials for a
// machine client, or an enterprise identity provider's assertion grant
// (SEP-990) for a user signed in there, or a workload's platform-issued JWT
// (SEP-1933); the token endpoint authentication is the best method both
// sides support (private_key_jwt, client_secret_basic, client_secret_post,
// none). Tokens are bound to a key with DPoP where the server supports it.
// Refresh tokens are used before signing in again. What it gets is kept in
// an oauth_store (in memory by default; a 0600 file for the CLI).

#include <mcp/export.hpp>
#include <mcp/client/impl/async_launch.hpp>
#include <mcp/error.hpp>
#include <mcp/transport/http_client.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/system/errc.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// Why signing in failed for good: no metadata, a refused registration or
/// token request, denied consent, a wrong issuer... what() is one line.
/// Code: boost::system::errc::permission_denied.
class MCP_API oauth_error : public error {
 public:
  /// `message` is what() as it is.
  explicit oauth_error(std::string message)
      : error(make_error_code(boost::system::errc::permission_denied), std::move(message), whole_message{}) {}
};

/// What the client keeps for one protected server: its registration at the
/// authorization server, and its tokens.
struct MCP_API oauth_record {
  std::string issuer;  ///< the authorization server the rest belongs to
  std::string client_id;      ///< the client's id there; empty for a workload known by its token
  std::string client_secret;  ///< empty for a public client
  /// How the client authenticates at the token endpoint: private_key_jwt,
  /// client_secret_basic, client_secret_post or none.
  std::string token_endpoint_auth_method;
  /// How the client id was had: "preregistered", "metadata_document",
  /// "dynamic", or "none" (a workload known by its token alone).
  std::string registration;
  std::vector<std::string> redirect_uris;  ///< registered with it (dynamic registration)
  std::string access_token;  ///< empty: none yet, or dropped after a failed refresh
  std::string token_type;  ///< "Bearer", or "DPoP" for a token bound to dpop_key
  std::string refresh_token;  ///< empty: none (signing in again is the only way)
  std::string scope;  ///< the scopes asked for (space-separated)
  std::int64_t expires_at = 0;  ///< Unix seconds; 0: unknown
  /// The private key (PEM) the tokens are bound to with DPoP; empty: none.
  std::string dpop_key;
};

/// Where oauth_client keeps what it gets, by the protected resource's URL.
/// Called from the client's executor.
class MCP_API oauth_store {
 public:
  virtual ~oauth_store() = default;
  /// The record kept for `resource` (a URL without its query); nullopt: none.
  virtual std::optional<oauth_record> load(const std::string& resource) = 0;
  /// Keeps `record` for `resource`, replacing what was there.
  virtual void save(const std::string& resource, const oauth_record& record) = 0;
  /// Forgets what is kept for `resource` (sign_out, or a new authorization server).
  virtual void erase(const std::string& resource) = 0;
};

/// Forgets everything with the process.
MCP_API std::shared_ptr<oauth_store> make_memory_oauth_store();
/// A JSON file readable by its owner only (0600), written whole on each
/// change (a new file renamed over the old). Throws std::runtime_error when
/// the file exists but cannot be read or is not one of ours.
MCP_API std::shared_ptr<oauth_store> make_file_oauth_store(std::string path);

/// Takes the user to the authorization server and back: the authorization
/// code's way in.
class MCP_API oauth_user_agent {
 public:
  virtual ~oauth_user_agent() = default;
  /// Where the authorization server sends the user back (registered with it).
  virtual std::string redirect_uri() = 0;
  /// Takes the user through `authorization_url`; returns the URL the
  /// authorization server redirected to (the redirect URI with `code`,
  /// `state` and `iss`, or `error`). Throws oauth_error when it cannot.
  virtual asio::awaitable<std::string> authorize(std::string authorization_url) = 0;
};

/// How make_headless_user_agent follows the authorization URL.
struct MCP_API headless_options {
  /// Any URL: nothing listens there, the redirect to it is only read.
  std::string redirect_uri = "http://127.0.0.1:8765/callback";
  std::string ca_file = {};  ///< https: the CAs to trust; empty: the system's
  bool verify_peer = true;  ///< https: check the server's certificate and name
  int max_redirects = 10;   ///< more than this before the redirect URI is an oauth_error
  /// Follow redirects to loopback, private and link-local addresses too
  /// (the authorization server's redirects are its word, not the user's).
  bool allow_private_addresses = false;
};
/// Follows the authorization URL itself, with cookies, up to the redirect to
/// `redirect_uri`: for tests and conformance, against servers that approve
/// without a person (a login form stops it with an oauth_error).
MCP_API std::shared_ptr<oauth_user_agent> make_headless_user_agent(asio::any_io_executor ex, headless_options options);

/// How make_loopback_user_agent listens for the redirect.
struct MCP_API loopback_options {
  /// The port to listen on, on 127.0.0.1; 0 picks a free one.
  std::uint16_t port = 0;
  std::string path = "/callback";  ///< the redirect URI's path; requests to other paths are not the answer
  /// Shows the user the authorization URL; default: prints it on stderr and
  /// tries xdg-open (or open on macOS).
  std::function<void(const std::string& url)> open_browser = nullptr;
  /// How long the user has to finish signing in.
  std::chrono::seconds timeout{300};
};
/// The browser flow (RFC 8252): listens on 127.0.0.1 for the redirect, which
/// it answers with a short page saying the window can be closed. The port is
/// bound when this is made (throws mcp::error when it cannot).
MCP_API std::shared_ptr<oauth_user_agent> make_loopback_user_agent(asio::any_io_executor ex, loopback_options options);

/// How oauth_client gets a token (oauth_options::grant).
enum class oauth_grant {
  authorization_code,  ///< a person signs in (needs a user agent)
  client_credentials,  ///< the client acts on its own behalf
  /// Enterprise-managed authorization (the io.modelcontextprotocol/
  /// enterprise-managed-authorization extension, SEP-990): the ID token the
  /// user got by signing in to the enterprise's identity provider is
  /// exchanged there (RFC 8693) for an identity assertion grant (ID-JAG),
  /// which the server's authorization server exchanges (RFC 7523 jwt-bearer)
  /// for an access token. No browser; needs oauth_options::identity_provider
  /// and the client id registered with the authorization server.
  enterprise_managed,
  /// Workload identity federation (the io.modelcontextprotocol/auth/wif
  /// extension, SEP-1933): a JWT the platform issued to this workload (a
  /// Kubernetes service account token, a cloud identity token) is the
  /// RFC 7523 jwt-bearer assertion; needs oauth_options::workload_token.
  workload_identity,
};

/// The enterprise identity provider of oauth_grant::enterprise_managed.
struct MCP_API identity_provider_options {
  /// Its token endpoint; empty: read from the metadata of `issuer`.
  std::string token_endpoint = {};
  std::string issuer = {};  ///< its issuer URL, whose metadata names the token endpoint
  /// The client's registration at the identity provider (sent in the form:
  /// client_secret_post, or none without a secret).
  std::string client_id = {};
  std::string client_secret = {};  ///< empty: the client authenticates with its id alone
  /// The user's identity assertion: the ID token of their single sign-on.
  /// Asked for each time a grant is needed, so it may hand out a fresh one.
  std::function<std::string()> id_token = nullptr;
  /// What id_token returns: an OpenID Connect ID token, or a SAML 2 assertion
  /// ("urn:ietf:params:oauth:token-type:saml2").
  std::string subject_token_type = "urn:ietf:params:oauth:token-type:id_token";
};

/// How an oauth_client signs in: the grant, who the client is, what it asks
/// for, and how it reaches the authorization server.
struct MCP_API oauth_options {
  oauth_grant grant = oauth_grant::authorization_code;  ///< how the token is had
  /// The identity provider of the enterprise_managed grant.
  identity_provider_options identity_provider = {};
  /// The workload_identity grant's assertion, with the authorization server
  /// as its audience. Asked for at each grant: such tokens are short-lived
  /// and renewed by the platform (e.g. read the file it keeps fresh).
  std::function<std::string()> workload_token = nullptr;
  /// The user agent of the authorization code grant; null: a headless one.
  std::shared_ptr<oauth_user_agent> user_agent = nullptr;
  /// Null: in memory.
  std::shared_ptr<oauth_store> store = nullptr;

  // Who the client is. Pre-registered credentials win when client_id is set
  // (client_credentials needs them); then a metadata document URL, when the
  // authorization server supports them; then dynamic registration.
  std::string client_id = {};      ///< a pre-registered client id; empty: none
  std::string client_secret = {};  ///< its secret, if it has one (client_secret_basic or _post)
  /// The issuer the pre-registered credentials belong to; empty: any (the
  /// first the server names). Another issuer is refused, not sent them.
  std::string client_issuer = {};
  /// private_key_jwt: the PEM private key (RSA or EC) and its JWS algorithm
  /// (RS256, RS384, RS512, PS256, ES256, ES384, ES512).
  std::string private_key_pem = {};
  std::string signing_algorithm = "RS256";  ///< of private_key_pem's JWTs
  /// An https URL with a path where the client's metadata document is served.
  std::string client_metadata_url = {};
  std::string client_name = "Caduceus MCP client";  ///< dynamic registration's client_name
  std::string client_uri = {};  ///< dynamic registration's client_uri; empty: not sent
  /// "native" (CLI, desktop, localhost) or "web": OpenID registration's application_type.
  std::string application_type = "native";

  /// Scopes asked for besides what the server challenges for.
  std::vector<std::string> scopes = {};
  /// Ask for `offline_access` (refresh tokens) where the authorization server offers it.
  bool offline_access = true;
  /// Bind tokens to a key the client holds (DPoP, RFC 9449; SEP-1932) when
  /// the authorization server supports it: every request then carries a
  /// fresh proof signed with the key, so a stolen token is of no use.
  bool dpop = true;
  /// Re-authorizations for more scope (403 insufficient_scope) for one set
  /// of scopes before the refusal goes through.
  int max_step_ups = 2;

  // HTTP to the metadata, registration and token endpoints.
  std::string ca_file = {};  ///< the CAs to trust; empty: the system's
  bool verify_peer = true;   ///< check the servers' certificates and names
  /// Connecting, then writing a request, reading its head and reading its
  /// body: each within this.
  std::chrono::milliseconds timeout{10'000};
  /// Lets the authorization server's endpoints be plain http on a loopback
  /// address too (they must be https elsewhere: tokens cross them).
  bool allow_http_loopback = true;
  /// Lets every request of the sign-in (metadata, registration, tokens, and
  /// the default headless user agent) connect to loopback (127.0.0.0/8,
  /// ::1), private (10/8, 172.16/12, 192.168/16, fc00::/7) and link-local
  /// (169.254/16 with the clouds' metadata services, fe80::/10) addresses.
  /// Off, the URLs a server names in WWW-Authenticate and metadata (its
  /// word, not the user's) cannot make the client reach the machine it runs
  /// on or its network (SSRF): each address a name resolves to is checked as
  /// it is connected to. Turn it on for an authorization server on your own
  /// network, or tests on 127.0.0.1 (docs/security.md).
  bool allow_private_addresses = false;
};

/// An OAuth 2.1 client for any number of transports to protected servers.
/// Make it with std::make_shared: its sign-ins keep it alive (shared_from_this).
///
/// @par Thread safety
/// Call from one executor (the transports'); sign-ins for one server are
/// done one at a time, the other requests waiting for the result.
class MCP_API oauth_client : public http_authorizer, public std::enable_shared_from_this<oauth_client> {
 public:
  /// Does nothing yet: the first challenge (or sign_in) signs in.
  oauth_client(asio::any_io_executor ex, oauth_options options);
  ~oauth_client() override;
  oauth_client(const oauth_client&) = delete;
  oauth_client& operator=(const oauth_client&) = delete;

  http_fields credentials(std::string_view method, std::string_view url) override;
  asio::awaitable<bool> on_challenge(authorization_challenge challenge) override;

  /// Signs in to the server at `url` now, whether or not it asked (the CLI's
  /// `login`): a request without a token learns what it needs. Throws
  /// oauth_error when the server does not ask for authorization, or it fails.
  asio::awaitable<void> sign_in(std::string url);
  /// sign_in with a completion token (as client::async_...), completing with
  /// void(std::exception_ptr); the oauth_client must outlive it.
  template <class CompletionToken>
  auto async_sign_in(std::string url, CompletionToken&& token) {
    return detail::async_run(sign_in(std::move(url)), executor(), std::forward<CompletionToken>(token));
  }
  /// The executor it was made with.
  asio::any_io_executor executor() const noexcept;
  /// Forgets the registration and tokens for the server at `url`.
  void sign_out(const std::string& url);
  /// What is kept for the server at `url`.
  std::optional<oauth_record> record(const std::string& url);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp
