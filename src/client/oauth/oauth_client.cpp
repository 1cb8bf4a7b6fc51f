// oauth_client: answers a protected server's 401 and 403 challenges by
// signing in (discovery, client identity, a grant) and keeps what it gets.

#include "challenge.hpp"
#include "discovery.hpp"
#include "dpop.hpp"
#include "endpoints.hpp"
#include "identity_assertion.hpp"
#include "urls.hpp"

#include "../../detail/lazy_event.hpp"

#include <mcp/base64.hpp>
#include <mcp/client/oauth.hpp>
#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/algorithm/string/predicate.hpp>
#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/serialize.hpp>

#include <openssl/rand.h>
#include <openssl/sha.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <sstream>

namespace mcp {

namespace {

using namespace detail::oauth;
using detail::http_client::http_fetcher;

// Thrown when re-authorizing for more scope was tried enough: the 403 goes
// through to the caller, whose call fails as the server said.
struct step_up_exhausted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string random_token(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1)
    throw oauth_error("no random bytes for PKCE");
  return base64url_encode(raw);
}

// RFC 7636 section 4.2: BASE64URL(SHA256(verifier)).
std::string s256(const std::string& verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return base64url_encode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::set<std::string> scope_set(std::string_view text) {
  std::set<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string s; in >> s;) out.insert(s);
  return out;
}

std::string joined(const std::set<std::string>& scopes) {
  std::string out;
  for (const auto& s : scopes) out += (out.empty() ? "" : " ") + s;
  return out;
}

bool offers(const std::optional<std::vector<std::string>>& list, std::string_view value) {
  return list && std::ranges::find(*list, value) != list->end();
}

// The key the store knows a server by: its URL without query or fragment.
std::string server_key(std::string_view url) {
  auto key = canonical_resource(url);
  return key.substr(0, key.find('?'));
}

}  // namespace

struct oauth_client::impl {
  struct server_state {
    std::optional<oauth_record> record;
    bool loaded = false;
    bool signing_in = false;
    std::unique_ptr<detail::lazy_event> signed_in;
    std::string failure;  // why the last sign-in failed, for those who waited for it
    std::map<std::string, int> step_ups;  // re-authorizations per scope set
    std::string fresh_token;  // the token the last sign-in got, and when
    std::int64_t fresh_at = 0;
    std::optional<signing_key> dpop;  // record->dpop_key, read
    std::string dpop_pem;             // what `dpop` was read from
    std::string as_nonce;             // the DPoP nonces the servers gave last (RFC 9449 sections 8, 9)
    std::string rs_nonce;
    bool rs_dpop = false;             // the MCP server challenged with the DPoP scheme
  };

  // The scheme a token is presented with: DPoP when it is bound to our key.
  static bool bound(const oauth_record& record) {
    return !record.dpop_key.empty() && boost::algorithm::iequals(record.token_type, "DPoP");
  }
  static std::string authorization_of(const oauth_record& record) {
    return (bound(record) ? "DPoP " : "Bearer ") + record.access_token;
  }

  // The DPoP key of the server's record, read once; null when it has none.
  const signing_key* dpop_key(server_state& state) {
    if (!state.record || state.record->dpop_key.empty()) return nullptr;
    if (!state.dpop || state.dpop_pem != state.record->dpop_key) {
      state.dpop = signing_key::from_pem(state.record->dpop_key, "DPoP");
      state.dpop_pem = state.record->dpop_key;
    }
    return &*state.dpop;
  }
  dpop_binding binding(server_state& state) { return {dpop_key(state), &state.as_nonce}; }

  impl(asio::any_io_executor e, oauth_options o)
      : executor(std::move(e)),
        options(std::move(o)),
        store(options.store ? options.store : make_memory_oauth_store()),
        fetcher(executor, fetch_options_of(options)) {}

  static detail::http_client::fetch_options fetch_options_of(const oauth_options& o) {
    detail::http_client::fetch_options f;
    f.ca_file = o.ca_file;
    f.verify_peer = o.verify_peer;
    f.timeout = o.timeout;
    f.connect_timeout = o.timeout;
    f.allow_private_addresses = o.allow_private_addresses;
    return f;
  }

  // The server a request URL belongs to: one signed in to at that URL, else
  // one on the same origin (the legacy transport POSTs to another path),
  // else the URL itself.
  std::string key_for(std::string_view url) {
    auto key = server_key(url);
    if (servers.contains(key)) return key;
    const auto origin = origin_of(url);
    for (const auto& [known, state] : servers)
      if (state.record && origin_of(known) == origin) return known;
    return key;
  }

  server_state& state_of(const std::string& key) {
    auto& state = servers[key];
    if (!state.loaded) {
      state.loaded = true;
      state.record = store->load(key);
    }
    return state;
  }

  void save(const std::string& key, server_state& state, oauth_record record) {
    store->save(key, record);
    state.record = std::move(record);
  }

  asio::awaitable<bool> answer(std::string key, authorization_challenge challenge);
  asio::awaitable<void> sign_in(const std::string& key, const std::string& url, const token_challenge& challenge,
                                unsigned status, const std::string& refused);
  asio::awaitable<bool> refresh(const std::string& key, server_state& state, const discovery& found);
  asio::awaitable<client_identity> identify(server_state& state, const discovery& found,
                                            const std::string& redirect_uri);
  asio::awaitable<token_response> authorization_code(const discovery& found, const client_identity& client,
                                                     const std::string& scope, oauth_user_agent& agent,
                                                     dpop_binding dpop);
  asio::awaitable<token_response> enterprise_managed(const discovery& found, const client_identity& client,
                                                     const std::string& scope, dpop_binding dpop);
  asio::awaitable<token_response> jwt_bearer(const discovery& found, const client_identity& client,
                                             std::string assertion, const std::string& scope, dpop_binding dpop);
  void require_https(const std::string& url, std::string_view what) const {
    // Tokens and credentials cross these endpoints.
    detail::oauth::require_https(url, options.allow_http_loopback, what);
  }
  std::string choose_scope(const server_state& state, const discovery& found, const token_challenge& challenge,
                           unsigned status) const;

  asio::any_io_executor executor;
  oauth_options options;
  std::shared_ptr<oauth_store> store;
  http_fetcher fetcher;
  std::shared_ptr<oauth_user_agent> default_agent;
  std::map<std::string, server_state> servers;
};

// --- the challenge ----------------------------------------------------------------

asio::awaitable<bool> oauth_client::impl::answer(std::string key, authorization_challenge c) {
  auto challenge = parse_challenge(c.www_authenticate, "Bearer");
  const auto dpop = parse_challenge(c.www_authenticate, "DPoP");
  if (!challenge.present) challenge = dpop;  // a server that speaks DPoP only
  // A 403 for anything but scope (an Origin refused, say) is not ours to answer.
  if (c.status == 403 && challenge.error != "insufficient_scope") co_return false;
  auto& state = state_of(key);
  if (dpop.present) state.rs_dpop = true;
  // RFC 9449 section 9: the server wants its nonce in the proof; the request
  // goes again with it (the transport bounds how often).
  if (c.status == 401 && dpop.error == "use_dpop_nonce" && !c.dpop_nonce.empty()) {
    state.rs_nonce = c.dpop_nonce;
    co_return true;
  }
  for (;;) {
    const auto current = state.record && !state.record->access_token.empty()
                             ? authorization_of(*state.record) : std::string();
    // Another request signed in meanwhile: this one goes again with the new token.
    if (!current.empty() && current != c.sent_authorization && c.status == 401) co_return true;
    if (!state.signing_in) break;
    if (!state.signed_in) state.signed_in = std::make_unique<detail::lazy_event>(executor);
    co_await state.signed_in->timer().async_wait(asio::as_tuple(asio::use_awaitable));
    if (!state.failure.empty()) throw oauth_error(state.failure);
    if (c.status == 403) co_return true;  // the step-up it waited for is done
  }
  state.signing_in = true;
  state.failure.clear();
  try {
    co_await sign_in(key, c.url, challenge, c.status, c.sent_authorization);
  } catch (const std::exception& e) {
    state.signing_in = false;
    state.failure = e.what();
    if (state.signed_in) state.signed_in->notify();
    if (dynamic_cast<const step_up_exhausted*>(&e)) co_return false;
    throw;
  }
  state.signing_in = false;
  if (state.signed_in) state.signed_in->notify();
  co_return true;
}

std::string oauth_client::impl::choose_scope(const server_state& state, const discovery& found,
                                             const token_challenge& challenge, unsigned status) const {
  std::set<std::string> scopes;
  // The challenge's scopes are authoritative; without them, what the resource
  // says it supports; without that, no scope at all.
  if (!challenge.scope.empty())
    scopes = scope_set(challenge.scope);
  else if (found.resource_metadata && found.resource_metadata->scopes_supported)
    scopes.insert(found.resource_metadata->scopes_supported->begin(), found.resource_metadata->scopes_supported->end());
  // Step-up: keep what was granted before (the union).
  if (status == 403 && state.record) scopes.merge(scope_set(state.record->scope));
  scopes.insert(options.scopes.begin(), options.scopes.end());
  if (options.offline_access && options.grant == oauth_grant::authorization_code &&
      offers(found.server.scopes_supported, "offline_access"))
    scopes.insert("offline_access");
  return joined(scopes);
}

asio::awaitable<void> oauth_client::impl::sign_in(const std::string& key, const std::string& url,
                                                  const token_challenge& challenge, unsigned status,
                                                  const std::string& refused) {
  auto& state = state_of(key);
  auto found = co_await discover(fetcher, url, challenge, options.allow_http_loopback);
  // The token just had from the same authorization server refused: signing
  // in again would only loop (through a browser, each time).
  if (status == 401 && !refused.empty() && !state.fresh_token.empty() && refused.ends_with(" " + state.fresh_token) &&
      unix_now() - state.fresh_at < 10 && state.record && state.record->issuer == found.issuer)
    throw oauth_error("the server at " + url + " refused the token " + found.issuer + " just gave" +
                      (challenge.error_description.empty() ? "" : ": " + challenge.error_description));
  require_https(found.server.token_endpoint, "the token endpoint");

  // Credentials belong to the authorization server that issued them: a new
  // one (the resource moved) means registering anew there.
  if (state.record && state.record->issuer != found.issuer) {
    if (state.record->registration == "preregistered" && options.client_issuer.empty())
      throw oauth_error("the client id was used with " + state.record->issuer + ", but " + url + " now names " +
                        found.issuer + "; refusing to send it another authorization server (sign out first)");
    sdk_log(log_category::auth, log_level::info, "OAuth: the server moved to another authorization server; registering anew",
            {{"url", url}, {"from", state.record->issuer}, {"to", found.issuer}});
    state.record.reset();
    store->erase(key);
  }

  const auto scope = choose_scope(state, found, challenge, status);
  if (status == 403 && ++state.step_ups[scope] > options.max_step_ups)
    throw step_up_exhausted("re-authorizing for \"" + scope + "\" was tried enough");
  if (status == 401 && co_await refresh(key, state, found)) co_return;

  oauth_user_agent* agent = nullptr;
  std::string redirect_uri;
  if (options.grant == oauth_grant::authorization_code) {
    if (!options.user_agent && !default_agent) {
      headless_options headless;
      headless.ca_file = options.ca_file;
      headless.verify_peer = options.verify_peer;
      headless.allow_private_addresses = options.allow_private_addresses;
      default_agent = make_headless_user_agent(executor, std::move(headless));
    }
    agent = options.user_agent ? options.user_agent.get() : default_agent.get();
    redirect_uri = agent->redirect_uri();
  }
  const auto client = co_await identify(state, found, redirect_uri);
  oauth_record record;
  record.issuer = found.issuer;
  record.client_id = client.client_id;
  record.client_secret = client.client_secret;
  record.token_endpoint_auth_method = client.auth_method;
  record.registration = state.record ? state.record->registration : "";
  if (record.registration.empty())
    record.registration = !options.client_id.empty()                    ? "preregistered"
                          : client.client_id.empty()                      ? "none"
                          : client.client_id == options.client_metadata_url ? "metadata_document"
                                                                            : "dynamic";
  if (state.record) record.redirect_uris = state.record->redirect_uris;
  if (!redirect_uri.empty() && std::ranges::find(record.redirect_uris, redirect_uri) == record.redirect_uris.end())
    record.redirect_uris.push_back(redirect_uri);
  record.scope = scope;
  // DPoP where both servers do it (a server that knows only Bearer would
  // refuse a bound token), with the key kept from before (a refresh token may
  // be bound to it) or a new one.
  const auto& resource = found.resource_metadata;
  const bool server_dpop = state.rs_dpop || (resource && (resource->dpop_bound_access_tokens_required.value_or(false) ||
                                                          resource->dpop_signing_alg_values_supported));
  const bool use_dpop =
      options.dpop && server_dpop && offers(found.server.dpop_signing_alg_values_supported, dpop_algorithm);
  record.dpop_key = !use_dpop ? std::string()
                    : state.record && !state.record->dpop_key.empty() ? state.record->dpop_key
                                                                      : signing_key::generate_p256().pem();
  // Registered before the grant: a denied consent need not register again.
  save(key, state, record);

  token_response token;
  if (options.grant == oauth_grant::client_credentials) {
    form grant{{"grant_type", "client_credentials"}};
    if (!scope.empty()) grant.emplace_back("scope", scope);
    grant.emplace_back("resource", found.resource);
    token = co_await request_token(fetcher, found.server, client, std::move(grant), binding(state));
  } else if (options.grant == oauth_grant::enterprise_managed) {
    token = co_await enterprise_managed(found, client, scope, binding(state));
  } else if (options.grant == oauth_grant::workload_identity) {
    if (!options.workload_token) throw oauth_error("workload identity needs the workload's token (workload_token)");
    auto assertion = options.workload_token();
    if (assertion.empty()) throw oauth_error("the workload has no token to present");
    token = co_await jwt_bearer(found, client, std::move(assertion), scope, binding(state));
  } else {
    token = co_await authorization_code(found, client, scope, *agent, binding(state));
  }
  record.access_token = token.access_token;
  record.token_type = token.token_type.value_or("Bearer");
  record.refresh_token = token.refresh_token.value_or("");
  record.expires_at = token.expires_in ? unix_now() + static_cast<std::int64_t>(*token.expires_in) : 0;
  state.fresh_token = record.access_token;
  state.fresh_at = unix_now();
  save(key, state, std::move(record));
}

asio::awaitable<bool> oauth_client::impl::refresh(const std::string& key, server_state& state, const discovery& found) {
  if (!state.record || state.record->refresh_token.empty() || state.record->client_id.empty()) co_return false;
  client_identity client;
  client.client_id = state.record->client_id;
  client.client_secret = state.record->client_secret;
  client.auth_method = state.record->token_endpoint_auth_method;
  client.private_key_pem = options.private_key_pem;
  client.signing_algorithm = options.signing_algorithm;
  form grant{{"grant_type", "refresh_token"}, {"refresh_token", state.record->refresh_token},
             {"resource", found.resource}};
  try {
    const auto token = co_await request_token(fetcher, found.server, client, std::move(grant), binding(state));
    auto record = *state.record;
    record.access_token = token.access_token;
    record.token_type = token.token_type.value_or("Bearer");
    if (token.refresh_token) record.refresh_token = *token.refresh_token;  // rotated
    record.expires_at = token.expires_in ? unix_now() + static_cast<std::int64_t>(*token.expires_in) : 0;
    state.fresh_token = record.access_token;
    state.fresh_at = unix_now();
    save(key, state, std::move(record));
    co_return true;
  } catch (const oauth_error& e) {
    // An expired or revoked refresh token: sign in again.
    sdk_log(log_category::auth, log_level::info, "OAuth: refreshing the token failed; signing in again", {{"error", e.what()}});
    auto record = *state.record;
    record.refresh_token.clear();
    record.access_token.clear();
    save(key, state, std::move(record));
    co_return false;
  }
}

// --- who the client is -------------------------------------------------------------------

asio::awaitable<client_identity> oauth_client::impl::identify(server_state& state, const discovery& found,
                                                              const std::string& redirect_uri) {
  const bool has_key = !options.private_key_pem.empty();
  client_identity client;
  client.private_key_pem = options.private_key_pem;
  client.signing_algorithm = options.signing_algorithm;
  if (!options.client_id.empty()) {
    if (!options.client_issuer.empty() && options.client_issuer != found.issuer)
      throw oauth_error("the client id is registered with " + options.client_issuer + ", but the server names " +
                        found.issuer + "; refusing to send it there");
    client.client_id = options.client_id;
    client.client_secret = options.client_secret;
    client.auth_method = choose_auth_method(found.server, !options.client_secret.empty(), has_key);
    co_return client;
  }
  const auto& kept = state.record;
  const bool kept_fits = kept && kept->issuer == found.issuer && !kept->client_id.empty() &&
                         (redirect_uri.empty() || kept->registration != "dynamic" ||
                          std::ranges::find(kept->redirect_uris, redirect_uri) != kept->redirect_uris.end());
  if (kept_fits) {
    client.client_id = kept->client_id;
    client.client_secret = kept->client_secret;
    client.auth_method = kept->token_endpoint_auth_method;
    co_return client;
  }
  if (options.grant == oauth_grant::client_credentials)
    throw oauth_error("client_credentials needs a client id (and a secret or a private key)");
  // A workload is known by its token; client authentication is optional (RFC 7523 section 3.1).
  if (options.grant == oauth_grant::workload_identity) {
    client.auth_method = "none";
    co_return client;
  }
  // The identity provider names the client in the grant: it must know the id beforehand.
  if (options.grant == oauth_grant::enterprise_managed)
    throw oauth_error("enterprise-managed authorization needs the client id registered with " + found.issuer);
  if (!options.client_metadata_url.empty() && found.server.client_id_metadata_document_supported.value_or(false)) {
    client.client_id = options.client_metadata_url;
    client.auth_method = has_key ? "private_key_jwt" : "none";
    co_return client;
  }
  std::vector<std::string> grant_types{"authorization_code"};
  if (options.offline_access) grant_types.push_back("refresh_token");
  std::vector<std::string> redirect_uris{redirect_uri};
  if (found.server.registration_endpoint) require_https(*found.server.registration_endpoint, "the registration endpoint");
  co_return co_await register_client(fetcher, found.server, options, std::move(redirect_uris), std::move(grant_types));
}

// --- the authorization code grant -----------------------------------------------------------

asio::awaitable<token_response> oauth_client::impl::authorization_code(const discovery& found,
                                                                       const client_identity& client,
                                                                       const std::string& scope,
                                                                       oauth_user_agent& agent, dpop_binding dpop) {
  const auto& server = found.server;
  if (!server.authorization_endpoint)
    throw oauth_error("the authorization server " + found.issuer + " has no authorization_endpoint");
  require_https(*server.authorization_endpoint, "the authorization endpoint");
  // Without PKCE S256 the code could be stolen; a server with metadata must say it has it.
  if (found.server_metadata_found && !offers(server.code_challenge_methods_supported, "S256"))
    throw oauth_error("the authorization server " + found.issuer + " does not support PKCE with S256; refusing");
  const auto verifier = random_token(32);
  const auto state = random_token(16);
  const auto redirect_uri = agent.redirect_uri();
  form query{{"response_type", "code"},
             {"client_id", client.client_id},
             {"redirect_uri", redirect_uri},
             {"state", state},
             {"code_challenge", s256(verifier)},
             {"code_challenge_method", "S256"}};
  if (!scope.empty()) query.emplace_back("scope", scope);
  query.emplace_back("resource", found.resource);
  const auto callback = co_await agent.authorize(with_query(*server.authorization_endpoint, query));

  auto answer = query_of(callback);
  // RFC 9207 section 2.4, before anything in the answer is acted on (errors too).
  if (const auto iss = answer.find("iss"); iss != answer.end()) {
    if (iss->second != found.issuer)
      throw oauth_error("the authorization response came from \"" + iss->second + "\", not from \"" + found.issuer +
                        "\" (RFC 9207); refusing it");
  } else if (server.authorization_response_iss_parameter_supported.value_or(false)) {
    throw oauth_error("the authorization response of " + found.issuer +
                      " lacks the iss parameter its metadata promises (RFC 9207); refusing it");
  }
  if (answer["state"] != state) throw oauth_error("the authorization response has a wrong state; refusing it");
  if (const auto error = answer.find("error"); error != answer.end()) {
    const auto description = answer["error_description"];
    throw oauth_error("authorization refused: " + error->second + (description.empty() ? "" : " (" + description + ")"));
  }
  const auto code = answer["code"];
  if (code.empty()) throw oauth_error("the authorization response has no code");
  form grant{{"grant_type", "authorization_code"}, {"code", code}, {"redirect_uri", redirect_uri},
             {"code_verifier", verifier}, {"resource", found.resource}};
  co_return co_await request_token(fetcher, server, client, std::move(grant), dpop);
}

// --- assertion grants: enterprise-managed authorization, workload identity ----------------

asio::awaitable<token_response> oauth_client::impl::enterprise_managed(const discovery& found,
                                                                       const client_identity& client,
                                                                       const std::string& scope, dpop_binding dpop) {
  const auto& idp = options.identity_provider;
  if (!idp.token_endpoint.empty()) require_https(idp.token_endpoint, "the identity provider's token endpoint");
  else if (!idp.issuer.empty()) require_https(idp.issuer, "the identity provider");
  // The grant names the authorization server by its issuer, and this resource (section 4).
  auto assertion = co_await request_identity_grant(fetcher, idp, found.issuer, found.resource, scope);
  co_return co_await jwt_bearer(found, client, std::move(assertion), scope, dpop);
}

// RFC 7523 section 2.1: an assertion as the grant. A refusal is final: no
// other grant is tried (the workload or the enterprise said no).
asio::awaitable<token_response> oauth_client::impl::jwt_bearer(const discovery& found, const client_identity& client,
                                                               std::string assertion, const std::string& scope,
                                                               dpop_binding dpop) {
  form grant{{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"}, {"assertion", std::move(assertion)}};
  if (!scope.empty()) grant.emplace_back("scope", scope);
  co_return co_await request_token(fetcher, found.server, client, std::move(grant), dpop);
}

// --- oauth_client -----------------------------------------------------------------------------

oauth_client::oauth_client(asio::any_io_executor ex, oauth_options options)
    : impl_(std::make_unique<impl>(std::move(ex), std::move(options))) {}

oauth_client::~oauth_client() = default;

asio::any_io_executor oauth_client::executor() const noexcept { return impl_->executor; }

http_fields oauth_client::credentials(std::string_view method, std::string_view url) {
  auto& state = impl_->state_of(impl_->key_for(url));
  if (!state.record || state.record->access_token.empty()) return {};
  const auto& record = *state.record;
  http_fields fields{{"Authorization", impl::authorization_of(record)}};
  if (impl::bound(record))
    fields.emplace_back("DPoP", make_dpop_proof(*impl_->dpop_key(state), method, url, record.access_token,
                                                state.rs_nonce));
  return fields;
}

asio::awaitable<bool> oauth_client::on_challenge(authorization_challenge challenge) {
  auto self = shared_from_this();  // alive across the sign-in
  const auto key = impl_->key_for(challenge.url);
  co_return co_await impl_->answer(key, std::move(challenge));
}

asio::awaitable<void> oauth_client::sign_in(std::string url) {
  auto self = shared_from_this();
  require_http_url(url, "sign in");
  // A request without a token: a protected server answers with its challenge.
  detail::http_client::fetch_request probe;
  probe.method = detail::http_client::http_method::post;
  probe.url = url;
  probe.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}};
  probe.body = boost::json::serialize(boost::json::object{{"jsonrpc", "2.0"}, {"id", 0}, {"method", methods::ping}});
  const auto response = co_await impl_->fetcher.fetch(std::move(probe));
  authorization_challenge challenge;
  challenge.url = url;
  challenge.status = 401;
  for (const auto& [name, value] : response.headers)
    if (boost::algorithm::iequals(name, "WWW-Authenticate")) challenge.www_authenticate.push_back(value);
  if (response.status != 401) {
    // Still a protected resource if it publishes metadata; else there is nothing to sign in to.
    bool published = false;
    for (const auto& where : protected_resource_metadata_urls(url))
      if (co_await fetch_document<protected_resource_metadata>(impl_->fetcher, where)) published = true;
    if (!published)
      throw oauth_error(url + " does not ask for authorization (HTTP " + std::to_string(response.status) +
                        " without a token, and no protected resource metadata)");
  }
  const auto key = server_key(url);
  auto& state = impl_->state_of(key);
  // `login` means a new sign-in, not the token kept from the last one.
  if (state.record) {
    state.record->access_token.clear();
    state.record->refresh_token.clear();
  }
  if (!co_await impl_->answer(key, std::move(challenge)))
    throw oauth_error("signing in to " + url + " did not succeed");
}

void oauth_client::sign_out(const std::string& url) {
  const auto key = impl_->key_for(url);
  impl_->store->erase(key);
  impl_->servers.erase(key);
}

std::optional<oauth_record> oauth_client::record(const std::string& url) {
  return impl_->state_of(impl_->key_for(url)).record;
}

}  // namespace mcp
