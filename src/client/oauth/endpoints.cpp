#include "endpoints.hpp"

#include "client_assertion.hpp"
#include "dpop.hpp"
#include "json_body.hpp"
#include "urls.hpp"

#include <mcp/base64.hpp>
#include <mcp/json/convert.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <optional>

namespace mcp::detail::oauth {

namespace {

bool supports(const string_list& list, std::string_view value) {
  return list && std::ranges::find(*list, value) != list->end();
}

// The body's error response, when it is one.
std::optional<error_response> error_of(const http_client::fetch_response& response) {
  return read_json_as<error_response>(response.body);
}

// "invalid_client (the secret is wrong)", or the status when the body says nothing.
std::string refusal(const http_client::fetch_response& response) {
  const auto error = error_of(response);
  if (!error) return "HTTP " + std::to_string(response.status);
  std::string text = error->error;
  if (error->error_description && !error->error_description->empty()) text += " (" + *error->error_description + ")";
  return text;
}

// RFC 6749 section 2.3.1: the id and secret are form-encoded, then joined.
std::string basic_credentials(const client_identity& client) {
  return "Basic " + base64_encode(form_encode({{"", client.client_id}}).substr(1) + ":" +
                                  form_encode({{"", client.client_secret}}).substr(1));
}

}  // namespace

std::string choose_auth_method(const authorization_server_metadata& server, bool has_secret, bool has_key) {
  const auto& offered = server.token_endpoint_auth_methods_supported;
  if (!offered) {
    if (has_key) return "private_key_jwt";
    return has_secret ? "client_secret_basic" : "none";
  }
  if (has_key && supports(offered, "private_key_jwt")) return "private_key_jwt";
  if (has_secret && supports(offered, "client_secret_basic")) return "client_secret_basic";
  if (has_secret && supports(offered, "client_secret_post")) return "client_secret_post";
  if (supports(offered, "none")) return "none";
  throw oauth_error("the authorization server " + server.issuer +
                    " supports no token endpoint authentication this client can do");
}

boost::asio::awaitable<client_identity> register_client(http_client::http_fetcher& fetcher,
                                                        const authorization_server_metadata& server,
                                                        const oauth_options& options,
                                                        std::vector<std::string> redirect_uris,
                                                        std::vector<std::string> grant_types) {
  if (!server.registration_endpoint)
    throw oauth_error("the authorization server " + server.issuer +
                      " offers no dynamic client registration, and no client id is configured (--client-id)");
  const bool has_key = !options.private_key_pem.empty();
  // A public client unless it has a key: a secret would be given to every copy.
  std::string method = has_key ? "private_key_jwt" : "none";
  if (const auto& offered = server.token_endpoint_auth_methods_supported; offered && !supports(offered, method))
    method = choose_auth_method(server, true, has_key);
  boost::json::object body{{"client_name", options.client_name},
                           {"redirect_uris", to_json_value(redirect_uris)},
                           {"grant_types", to_json_value(grant_types)},
                           {"response_types", boost::json::array{"code"}},
                           {"token_endpoint_auth_method", method},
                           {"application_type", options.application_type}};
  if (!options.client_uri.empty()) body["client_uri"] = options.client_uri;
  if (!options.scopes.empty()) {
    std::string scope;
    for (const auto& s : options.scopes) scope += (scope.empty() ? "" : " ") + s;
    body["scope"] = scope;
  }
  http_client::fetch_request request;
  request.method = http_client::http_method::post;
  request.url = *server.registration_endpoint;
  request.headers = {{"Content-Type", "application/json"}, {"Accept", "application/json"}};
  request.body = boost::json::serialize(body);
  const auto response = co_await fetcher.fetch(std::move(request));
  if (response.status != 200 && response.status != 201)
    throw oauth_error("registration at " + *server.registration_endpoint + " refused: " + refusal(response));
  registration_response registered;
  try {
    registered = from_json<registration_response>(boost::json::parse(response.body));
  } catch (const std::exception& e) {
    throw oauth_error("registration at " + *server.registration_endpoint + " answered no client_id: " + e.what());
  }
  client_identity client;
  client.client_id = registered.client_id;
  client.client_secret = registered.client_secret.value_or("");
  client.auth_method = registered.token_endpoint_auth_method.value_or(method);
  client.private_key_pem = options.private_key_pem;
  client.signing_algorithm = options.signing_algorithm;
  co_return client;
}

boost::asio::awaitable<token_response> request_token(http_client::http_fetcher& fetcher,
                                                     const authorization_server_metadata& server,
                                                     const client_identity& client,
                                                     std::vector<std::pair<std::string, std::string>> grant,
                                                     dpop_binding dpop) {
  std::vector<std::pair<std::string, std::string>> headers{{"Content-Type", "application/x-www-form-urlencoded"},
                                                           {"Accept", "application/json"}};
  const auto& method = client.auth_method;
  if (method == "client_secret_basic") {
    headers.emplace_back("Authorization", basic_credentials(client));
  } else {
    if (!client.client_id.empty()) grant.emplace_back("client_id", client.client_id);
    if (method == "client_secret_post") grant.emplace_back("client_secret", client.client_secret);
  }
  http_client::fetch_response response;
  for (int attempt = 0; attempt < 2; ++attempt) {
    http_client::fetch_request request;
    request.method = http_client::http_method::post;
    request.url = server.token_endpoint;
    request.headers = headers;
    auto fields = grant;
    // A fresh assertion and proof each time: their jti must not repeat.
    if (method == "private_key_jwt") {
      // The audience: the issuer (RFC 7523 bis); the token endpoint is also accepted by most servers.
      fields.emplace_back("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
      fields.emplace_back("client_assertion", make_client_assertion(client.client_id, server.issuer,
                                                                    client.private_key_pem, client.signing_algorithm));
    }
    if (dpop.key)
      request.headers.emplace_back("DPoP", make_dpop_proof(*dpop.key, "POST", server.token_endpoint, {},
                                                           dpop.nonce ? *dpop.nonce : std::string()));
    request.body = form_encode(fields);
    response = co_await fetcher.fetch(std::move(request));
    const auto nonce = response.header("DPoP-Nonce");
    if (dpop.key && dpop.nonce && !nonce.empty()) *dpop.nonce = nonce;
    // RFC 9449 section 8: the server wants its nonce in the proof.
    const bool wants_nonce = dpop.key && response.status == 400 && !nonce.empty() && attempt == 0 &&
                             error_of(response).value_or(error_response{}).error == "use_dpop_nonce";
    if (!wants_nonce) break;
  }
  if (response.status != 200)
    throw oauth_error("the token endpoint " + server.token_endpoint + " refused: " + refusal(response));
  try {
    auto token = from_json<token_response>(boost::json::parse(response.body));
    if (token.access_token.empty()) throw std::runtime_error("an empty access_token");
    co_return token;
  } catch (const std::exception& e) {
    throw oauth_error("the token endpoint " + server.token_endpoint + " answered no token: " + e.what());
  }
}

}  // namespace mcp::detail::oauth
