#include "discovery.hpp"

#include "json_body.hpp"
#include "urls.hpp"

#include <mcp/client/oauth.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/log.hpp>

#include <boost/json/parse.hpp>

namespace mcp::detail::oauth {

template <class T>
boost::asio::awaitable<std::optional<T>> fetch_document(http_client::http_fetcher& fetcher, std::string url) {
  http_client::fetch_request request;
  request.url = std::move(url);
  request.headers.emplace_back("Accept", "application/json");
  const auto response = co_await fetcher.fetch(std::move(request));
  if (response.status != 200) co_return std::nullopt;
  co_return read_json_as<T>(response.body);
}

template boost::asio::awaitable<std::optional<protected_resource_metadata>> fetch_document(
    http_client::http_fetcher&, std::string);
template boost::asio::awaitable<std::optional<authorization_server_metadata>> fetch_document(
    http_client::http_fetcher&, std::string);

boost::asio::awaitable<std::optional<authorization_server_metadata>> read_server_metadata(
    http_client::http_fetcher& fetcher, std::string issuer, bool any_issuer) {
  for (auto& url : authorization_server_metadata_urls(issuer)) {
    auto metadata = co_await fetch_document<authorization_server_metadata>(fetcher, url);
    if (!metadata) continue;
    // RFC 8414 section 3.3: identical, character for character.
    if (metadata->issuer != issuer && !any_issuer)
      throw oauth_error("the authorization server metadata at " + url + " names the issuer \"" + metadata->issuer +
                        "\", not \"" + issuer + "\"; refusing it");
    co_return metadata;
  }
  co_return std::nullopt;
}

namespace {

boost::asio::awaitable<std::optional<protected_resource_metadata>> read_resource_metadata(
    http_client::http_fetcher& fetcher, const std::string& server_url, const token_challenge& challenge) {
  std::vector<std::string> urls;
  if (!challenge.resource_metadata.empty()) {
    require_http_url(challenge.resource_metadata, "the resource_metadata of WWW-Authenticate");
    urls.push_back(challenge.resource_metadata);
  } else {
    urls = protected_resource_metadata_urls(server_url);
  }
  for (auto& url : urls) {
    auto metadata = co_await fetch_document<protected_resource_metadata>(fetcher, url);
    if (!metadata) continue;
    if (!resource_covers(metadata->resource, server_url))
      throw oauth_error("the protected resource metadata at " + url + " is for \"" + metadata->resource +
                        "\", not for " + server_url + "; refusing it");
    if (!metadata->authorization_servers || metadata->authorization_servers->empty())
      throw oauth_error("the protected resource metadata at " + url + " names no authorization server");
    co_return metadata;
  }
  if (!challenge.resource_metadata.empty())
    throw oauth_error("no protected resource metadata at " + challenge.resource_metadata);
  co_return std::nullopt;
}

// 2025-03-26, section 2.3.3: without metadata the endpoints are at the
// authorization base URL (the server's origin) by their default paths.
authorization_server_metadata default_endpoints(const std::string& base) {
  authorization_server_metadata server;
  server.issuer = base;
  server.authorization_endpoint = base + "/authorize";
  server.token_endpoint = base + "/token";
  server.registration_endpoint = base + "/register";
  return server;
}

}  // namespace

boost::asio::awaitable<discovery> discover(http_client::http_fetcher& fetcher, std::string server_url,
                                           token_challenge challenge, bool allow_http_loopback) {
  discovery found;
  found.resource_metadata = co_await read_resource_metadata(fetcher, server_url, challenge);
  if (found.resource_metadata) {
    found.resource = found.resource_metadata->resource;
    // RFC 9728 section 7.6 leaves the choice to the client: the first one.
    found.issuer = found.resource_metadata->authorization_servers->front();
    require_http_url(found.issuer, "the authorization server of the protected resource metadata");
    require_https(found.issuer, allow_http_loopback, "the authorization server");
    auto server = co_await read_server_metadata(fetcher, found.issuer);
    if (!server) throw oauth_error("no authorization server metadata for " + found.issuer);
    found.server = std::move(*server);
    found.server_metadata_found = true;
    co_return found;
  }
  sdk_log(log_category::auth, log_level::debug,
          "OAuth: no protected resource metadata; trying the 2025-03-26 discovery at the server's origin",
          {{"url", server_url}});
  found.resource = canonical_resource(server_url);
  found.issuer = origin_of(server_url);
  require_https(found.issuer, allow_http_loopback, "the authorization server (the server's origin, 2025-03-26)");
  if (auto server = co_await read_server_metadata(fetcher, found.issuer, true)) {
    found.issuer = server->issuer.empty() ? found.issuer : server->issuer;
    found.server = std::move(*server);
    found.server_metadata_found = true;
  } else {
    found.server = default_endpoints(found.issuer);
  }
  co_return found;
}

}  // namespace mcp::detail::oauth
