#include "identity_assertion.hpp"

#include "discovery.hpp"
#include "endpoints.hpp"

namespace mcp::detail::oauth {

namespace {

constexpr std::string_view id_jag_type = "urn:ietf:params:oauth:token-type:id-jag";

}  // namespace

boost::asio::awaitable<std::string> request_identity_grant(http_client::http_fetcher& fetcher,
                                                           const identity_provider_options& provider,
                                                           std::string audience, std::string resource,
                                                           std::string scope) {
  if (!provider.id_token) throw oauth_error("enterprise-managed authorization needs the user's ID token (id_token)");
  authorization_server_metadata idp;
  idp.issuer = provider.issuer;
  idp.token_endpoint = provider.token_endpoint;
  if (idp.token_endpoint.empty()) {
    if (provider.issuer.empty())
      throw oauth_error("enterprise-managed authorization needs the identity provider's token endpoint or issuer");
    auto metadata = co_await read_server_metadata(fetcher, provider.issuer);
    if (!metadata) throw oauth_error("the identity provider " + provider.issuer + " publishes no metadata");
    idp = std::move(*metadata);
  }
  const auto subject_token = provider.id_token();
  if (subject_token.empty()) throw oauth_error("there is no ID token to exchange: sign in to the identity provider");

  client_identity client;
  client.client_id = provider.client_id;
  client.client_secret = provider.client_secret;
  client.auth_method = provider.client_secret.empty() ? "none" : "client_secret_post";
  std::vector<std::pair<std::string, std::string>> exchange{
      {"grant_type", "urn:ietf:params:oauth:grant-type:token-exchange"},
      {"requested_token_type", std::string(id_jag_type)},
      {"audience", std::move(audience)},
      {"resource", std::move(resource)},
      {"subject_token", subject_token},
      {"subject_token_type", provider.subject_token_type}};
  if (!scope.empty()) exchange.emplace_back("scope", std::move(scope));
  const auto answer = co_await request_token(fetcher, idp, client, std::move(exchange));
  if (answer.issued_token_type != id_jag_type)
    throw oauth_error("the identity provider at " + idp.token_endpoint + " issued \"" +
                      answer.issued_token_type.value_or("") + "\", not an identity assertion grant (id-jag)");
  co_return answer.access_token;
}

}  // namespace mcp::detail::oauth
