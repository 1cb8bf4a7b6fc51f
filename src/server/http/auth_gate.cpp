// OAuth 2.1 in front of the MCP endpoints (spec: basic/authorization): the
// Protected Resource Metadata (RFC 9728), the bearer token of every request
// checked by the configured verifier (RFC 6750) and, for a DPoP-bound one,
// its proof (RFC 9449), the server's required scopes, and the
// WWW-Authenticate challenges that tell a client where to sign in and which
// scopes to ask for.

#include "endpoint_impl.hpp"

#include "../../auth/bearer.hpp"
#include "../../detail/json_members.hpp"

#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
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
  if (!url) throw mcp::invalid_argument("http_auth_options::resource is not an absolute URL");
  std::string path(url->encoded_path());
  if (path == "/") path.clear();
  return std::string(url->scheme()) + "://" + std::string(url->encoded_authority()) + std::string(metadata_root) +
         path;
}

std::string origin_of_resource(std::string_view resource) {
  auto url = boost::urls::parse_absolute_uri(resource);
  if (!url) throw mcp::invalid_argument("http_auth_options::resource is not an absolute URL");
  return std::string(url->scheme()) + "://" + std::string(url->encoded_authority());
}

bool http_endpoint::impl::is_metadata_path(std::string_view path) const {
  if (!path.starts_with(metadata_root)) return false;
  const auto rest = path.substr(metadata_root.size());
  return rest.empty() || rest == options.path;
}

std::vector<std::string> http_endpoint::impl::metadata_paths() const {
  return {std::string(metadata_root), std::string(metadata_root) + options.path};
}

asio::awaitable<bool> http_endpoint::impl::serve_resource_metadata(response_channel& io, const http_request& req) {
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
  if (a.dpop || a.dpop_required) metadata["dpop_signing_alg_values_supported"] = string_array(a.dpop_algorithms);
  if (a.dpop_required) metadata["dpop_bound_access_tokens_required"] = true;
  // Public, and read by browser-based clients from other origins.
  co_return co_await reply(io, req, http::status::ok, json::serialize(metadata), "application/json", {},
                           "Access-Control-Allow-Origin: *\r\n");
}

asio::awaitable<bool> http_endpoint::impl::reply_challenge(response_channel& io, const served_request& req,
                                                         http::status status, std::string error,
                                                         std::string description,
                                                         std::vector<std::string> scopes,
                                                         std::chrono::steady_clock::time_point checking_since) {
  if (telemetry::listening(telemetry::event::token_refused)) {
    const auto reason = error.empty() ? std::string_view("missing") : std::string_view(error);
    telemetry::emit(telemetry::event::token_refused,
                    {{"duration", telemetry::seconds_between(checking_since, std::chrono::steady_clock::now())}},
                    {{"reason", reason}, {"status", static_cast<int>(status)}, {"message", description}});
  }
  const auto fields = challenge_fields(req, error, description, scopes);
  const std::string message = description.empty() ? std::string(http::obsolete_reason(status)) : description;
  std::string body = serialize(make_error({}, errc::invalid_request, std::string(http::obsolete_reason(status)) +
                                                                       ": " + message));
  co_return co_await reply(io, req, status, std::move(body), "application/json", {}, fields);
}

std::string http_endpoint::impl::challenge_fields(const served_request& req, const std::string& error,
                                                const std::string& description,
                                                const std::vector<std::string>& scopes) const {
  const auto& a = *options.auth;
  std::string fields;
  const auto add = [&](const char* scheme, bool carries_error) {
    auth::detail::challenge c;
    c.scheme = scheme;
    if (c.scheme == "DPoP") c.algs = a.dpop_algorithms;
    c.resource_metadata = resource_metadata_url;
    c.scopes = scopes;
    if (carries_error) {
      c.error = error;
      c.description = description;
    }
    fields += "WWW-Authenticate: " + auth::detail::www_authenticate(c) + "\r\n";
  };
  if (!a.dpop_required) add("Bearer", !req.dpop);
  if (a.dpop || a.dpop_required) add("DPoP", req.dpop || a.dpop_required);
  return fields;
}

std::string http_endpoint::impl::check_dpop(const served_request& req, std::string_view token, const std::string& jkt) {
  const auto& a = *options.auth;
  if (jkt.empty()) return "the token is not bound to a key: present it as Bearer";
  std::string_view proof;
  int proofs = 0;
  const auto headers = req.headers();  // `proof` views into it
  for (const auto& [name, value] : headers)
    if (name == "dpop") {
      ++proofs;
      proof = value;
    }
  if (proofs != 1) return proofs == 0 ? "the request has no DPoP proof" : "the request has several DPoP proofs";
  const auto target = req.target();
  const auto& origin = req.public_origin.empty() ? resource_origin : req.public_origin;
  const std::string url = origin + std::string(target.substr(0, target.find('?')));
  auth::detail::dpop_expectation expected;
  expected.method = http::to_string(req.method());
  expected.url = url;
  expected.access_token = token;
  expected.algorithms = a.dpop_algorithms;
  expected.window = a.dpop_proof_window;
  const auto checked = auth::detail::check_dpop_proof(proof, expected);
  if (!checked.error.empty()) return checked.error;
  if (checked.jkt != jkt) return "the DPoP proof is signed by another key than the token's";
  const auto now = std::chrono::duration_cast<std::chrono::seconds>(expected.now.time_since_epoch()).count();
  std::lock_guard lock(dpop_mutex);
  if (!dpop_replay.first_use(checked.jti, checked.iat + a.dpop_proof_window.count(), now))
    return "the DPoP proof was used before";
  return {};
}

asio::awaitable<bool> http_endpoint::impl::authenticate(response_channel& io, served_request& req, bool& keep) {
  const auto& a = *options.auth;
  using kind = auth::detail::bearer_credentials::kind;
  // (How long the check took, for the auth.token.* events.)
  const bool timed = telemetry::listening(telemetry::event::token_verified) ||
                     telemetry::listening(telemetry::event::token_refused);
  const auto started = timed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
  if (auth::detail::has_query_token(req.target())) {
    keep = co_await reply_challenge(io, req, http::status::bad_request, "invalid_request",
                                    "access tokens are accepted in the Authorization header only", {}, started);
    co_return false;
  }
  std::string token;
  {
    const auto headers = req.headers();
    const bool dpop = a.dpop || a.dpop_required;
    const auto credentials = auth::detail::read_bearer(headers, a.max_token_size, dpop);
    switch (credentials.found) {
      case kind::token:
        token = credentials.token;
        req.dpop = credentials.dpop;
        break;
      case kind::absent: break;
      case kind::malformed:
        keep = co_await reply_challenge(io, req, http::status::bad_request, "invalid_request",
                                        dpop ? "the Authorization header must be `Bearer <token>` or `DPoP <token>`"
                                             : "the Authorization header must be `Bearer <token>`",
                                        {}, started);
        co_return false;
      case kind::several:
        keep = co_await reply_challenge(io, req, http::status::bad_request, "invalid_request",
                                        "only one Authorization header is allowed", {}, started);
        co_return false;
      case kind::too_long:
        keep = co_await reply_challenge(io, req, http::status::unauthorized, "invalid_token",
                                        "the token is too long", a.required_scopes, started);
        co_return false;
    }
  }
  if (token.empty()) {
    // No credentials: no error code (RFC 6750 §3.1), where to sign in and the scopes to ask for.
    keep = co_await reply_challenge(io, req, http::status::unauthorized, {}, {}, a.required_scopes, started);
    co_return false;
  }
  if (a.dpop_required && !req.dpop) {
    keep = co_await reply_challenge(io, req, http::status::unauthorized, "invalid_token",
                                    "this server takes DPoP-bound tokens only", a.required_scopes, started);
    co_return false;
  }
  // The proof names the token (ath): kept for it.
  const std::string presented = req.dpop ? token : std::string();
  auth::verification checked;
  try {
    // On the verifier's strand: its caches are used from there only.
    const auto here = co_await asio::this_coro::executor;
    if (verifier_strand == here) checked = co_await a.verifier->verify(std::move(token));
    else checked = co_await asio::co_spawn(verifier_strand, a.verifier->verify(std::move(token)), asio::use_awaitable);
  } catch (const std::exception& e) {
    // A verifier must not throw; if one does, the client is not at fault.
    sdk_log(log_category::auth, log_level::error, "the token verifier failed", {{"error", e.what()}});
    checked = auth::verification::unavailable("the token cannot be checked now", std::chrono::seconds(5));
  }
  switch (checked.result) {
    case auth::verification::outcome::invalid:
      keep = co_await reply_challenge(io, req, http::status::unauthorized, "invalid_token", checked.description,
                                      a.required_scopes, started);
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
  // RFC 9449 section 7: a bound token needs its proof; as Bearer it is refused.
  const auto jkt = auth::detail::bound_key_of(checked.who.claims);
  if (req.dpop) {
    if (auto why = check_dpop(req, presented, jkt); !why.empty()) {
      keep = co_await reply_challenge(io, req, http::status::unauthorized,
                                      jkt.empty() ? "invalid_token" : "invalid_dpop_proof", why, a.required_scopes,
                                      started);
      co_return false;
    }
  } else if (!jkt.empty()) {
    keep = co_await reply_challenge(io, req, http::status::unauthorized, "invalid_token",
                                    "the token is bound to a key: present it with the DPoP scheme and a proof",
                                    a.required_scopes, started);
    co_return false;
  }
  checked.who.implies = a.scope_implies;
  if (!checked.who.missing_scopes(a.required_scopes).empty()) {
    keep = co_await reply_challenge(io, req, http::status::forbidden, "insufficient_scope",
                                    "the token lacks scopes this server requires", a.required_scopes, started);
    co_return false;
  }
  req.principal = std::make_shared<const auth::principal>(std::move(checked.who));
  if (telemetry::listening(telemetry::event::token_verified)) {
    std::string scopes;
    for (const auto& scope : req.principal->scopes) scopes += (scopes.empty() ? "" : " ") + scope;
    telemetry::emit(telemetry::event::token_verified,
                    {{"duration", telemetry::seconds_between(started, std::chrono::steady_clock::now())}},
                    {{"subject", req.principal->subject}, {"client_id", req.principal->client_id}, {"scopes", scopes}});
  }
  co_return true;
}

std::vector<std::string> http_endpoint::impl::challenge_scopes(std::string_view answer) const {
  std::vector<std::string> scopes = options.auth->required_scopes;
  boost::system::error_code ec;
  const auto parsed = json::parse(answer, ec);
  if (ec || !parsed.is_object()) return scopes;
  const auto* data = detail::object_at(parsed.get_object(), {"error", "data"});
  const auto* needed = data ? data->if_contains("requiredScopes") : nullptr;
  if (needed && needed->is_array())
    for (const auto& scope : needed->get_array())
      if (scope.is_string() && std::ranges::find(scopes, std::string_view(scope.get_string())) == scopes.end())
        scopes.emplace_back(scope.get_string());
  return scopes;
}

bool http_endpoint::impl::same_owner(const std::string& owner, const served_request& req) {
  return req.principal ? owner == req.principal->identity() : owner.empty();
}

void http_endpoint::impl::bind_principal(http_session& session, const served_request& req) {
  if (req.principal) session.engine().set_principal(req.principal);
}

}  // namespace mcp
