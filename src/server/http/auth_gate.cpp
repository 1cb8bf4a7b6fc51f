// OAuth 2.1 in front of the MCP endpoints (spec: basic/authorization): the
// Protected Resource Metadata (RFC 9728), the bearer token of every request
// checked by the configured verifier (RFC 6750), the server's required
// scopes, and the WWW-Authenticate challenges that tell a client where to
// sign in and which scopes to ask for.

#include "server_impl.hpp"

#include "../../auth/bearer.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>

namespace mcp {

namespace {

constexpr std::string_view metadata_root = "/.well-known/oauth-protected-resource";

json::array string_array(const std::vector<std::string>& items) {
  json::array out;
  for (const auto& item : items) out.emplace_back(item);
  return out;
}

}  // namespace

std::string resource_metadata_url_of(std::string_view resource) {
  // RFC 9728 §3.1: the well-known path goes between the host and the
  // resource's path.
  auto url = boost::urls::parse_absolute_uri(resource);
  if (!url) throw std::invalid_argument("http_auth_options::resource is not an absolute URL");
  std::string path(url->encoded_path());
  if (path == "/") path.clear();
  return std::string(url->scheme()) + "://" + std::string(url->encoded_authority()) + std::string(metadata_root) +
         path;
}

bool http_server::impl::is_metadata_path(std::string_view path) const {
  if (!path.starts_with(metadata_root)) return false;
  const auto rest = path.substr(metadata_root.size());
  return rest.empty() || rest == options.path;
}

asio::awaitable<bool> http_server::impl::serve_resource_metadata(connection_io& io, const http_request& req) {
  if (req.method() != http::verb::get) {
    co_return co_await reply(io, req, http::status::method_not_allowed, {}, {}, {}, "Allow: GET\r\n");
  }
  const auto& a = *options.auth;
  json::object metadata{{"resource", a.resource},
                        {"bearer_methods_supported", json::array{"header"}}};
  if (!a.authorization_servers.empty()) metadata["authorization_servers"] = string_array(a.authorization_servers);
  const auto& scopes = a.scopes_supported.empty() ? a.required_scopes : a.scopes_supported;
  if (!scopes.empty()) metadata["scopes_supported"] = string_array(scopes);
  if (!a.resource_name.empty()) metadata["resource_name"] = a.resource_name;
  if (!a.resource_documentation.empty()) metadata["resource_documentation"] = a.resource_documentation;
  // Public, and read by browser-based clients from other origins.
  co_return co_await reply(io, req, http::status::ok, json::serialize(metadata), "application/json", {},
                           "Access-Control-Allow-Origin: *\r\n");
}

asio::awaitable<bool> http_server::impl::reply_challenge(connection_io& io, const http_request& req,
                                                         http::status status, std::string error,
                                                         std::string description,
                                                         std::vector<std::string> scopes) {
  auth::detail::challenge c;
  c.resource_metadata = resource_metadata_url;
  c.scopes = std::move(scopes);
  c.error = std::move(error);
  c.description = description;
  const std::string fields = "WWW-Authenticate: " + auth::detail::www_authenticate(c) + "\r\n";
  const std::string message = description.empty() ? std::string(http::obsolete_reason(status)) : description;
  std::string body = serialize(make_error({}, errc::invalid_request, std::string(http::obsolete_reason(status)) +
                                                                       ": " + message));
  co_return co_await reply(io, req, status, std::move(body), "application/json", {}, fields);
}

asio::awaitable<bool> http_server::impl::authenticate(connection_io& io, http_request& req, bool& keep) {
  const auto& a = *options.auth;
  using kind = auth::detail::bearer_credentials::kind;
  if (auth::detail::has_query_token(req.target())) {
    keep = co_await reply_challenge(io, req, http::status::bad_request, "invalid_request",
                                    "access tokens are accepted in the Authorization header only", {});
    co_return false;
  }
  std::string token;
  {
    const auto headers = req.headers();
    const auto credentials = auth::detail::read_bearer(headers, a.max_token_size);
    switch (credentials.found) {
      case kind::token: token = credentials.token; break;
      case kind::absent: break;
      case kind::malformed:
        keep = co_await reply_challenge(io, req, http::status::bad_request, "invalid_request",
                                        "the Authorization header must be `Bearer <token>`", {});
        co_return false;
      case kind::several:
        keep = co_await reply_challenge(io, req, http::status::bad_request, "invalid_request",
                                        "only one Authorization header is allowed", {});
        co_return false;
      case kind::too_long:
        keep = co_await reply_challenge(io, req, http::status::unauthorized, "invalid_token",
                                        "the token is too long", a.required_scopes);
        co_return false;
    }
  }
  if (token.empty()) {
    // No credentials: no error code (RFC 6750 §3.1), where to sign in and the scopes to ask for.
    keep = co_await reply_challenge(io, req, http::status::unauthorized, {}, {}, a.required_scopes);
    co_return false;
  }
  auth::verification checked;
  try {
    checked = co_await a.verifier->verify(std::move(token));
  } catch (const std::exception& e) {
    // A verifier must not throw; if one does, the client is not at fault.
    sdk_log(log_level::error, std::string("the token verifier failed: ") + e.what());
    checked = auth::verification::unavailable("the token cannot be checked now", std::chrono::seconds(5));
  }
  switch (checked.result) {
    case auth::verification::outcome::invalid:
      keep = co_await reply_challenge(io, req, http::status::unauthorized, "invalid_token", checked.description,
                                      a.required_scopes);
      co_return false;
    case auth::verification::outcome::unavailable: {
      const auto fields = "Retry-After: " + std::to_string(std::max<long long>(1, checked.retry_after.count())) + "\r\n";
      std::string body = serialize(make_error({}, errc::internal_error, "Service Unavailable: " + checked.description));
      keep = co_await reply(io, req, http::status::service_unavailable, std::move(body), "application/json", {},
                            fields);
      co_return false;
    }
    case auth::verification::outcome::valid: break;
  }
  checked.who.implies = a.scope_implies;
  if (!checked.who.missing_scopes(a.required_scopes).empty()) {
    keep = co_await reply_challenge(io, req, http::status::forbidden, "insufficient_scope",
                                    "the token lacks scopes this server requires", a.required_scopes);
    co_return false;
  }
  req.principal = std::make_shared<const auth::principal>(std::move(checked.who));
  co_return true;
}

std::vector<std::string> http_server::impl::challenge_scopes(std::string_view answer) const {
  std::vector<std::string> scopes = options.auth->required_scopes;
  boost::system::error_code ec;
  const auto parsed = json::parse(answer, ec);
  if (ec || !parsed.is_object()) return scopes;
  const auto* error = parsed.get_object().if_contains("error");
  const auto* data = error && error->is_object() ? error->get_object().if_contains("data") : nullptr;
  const auto* needed = data && data->is_object() ? data->get_object().if_contains("requiredScopes") : nullptr;
  if (needed && needed->is_array())
    for (const auto& scope : needed->get_array())
      if (scope.is_string() && std::ranges::find(scopes, std::string_view(scope.get_string())) == scopes.end())
        scopes.emplace_back(scope.get_string());
  return scopes;
}

bool http_server::impl::same_owner(const std::string& owner, const http_request& req) {
  return req.principal ? owner == req.principal->identity() : owner.empty();
}

void http_server::impl::bind_principal(http_session_transport& session, const http_request& req) {
  if (req.principal) session.engine().set_principal(req.principal);
}

}  // namespace mcp
