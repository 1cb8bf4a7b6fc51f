// issuer_metadata.hpp

#include "issuer_metadata.hpp"

#include <mcp/error.hpp>

#include <boost/json/parse.hpp>
#include <boost/url/parse.hpp>

#include <stdexcept>

namespace mcp::auth::detail {

namespace json = boost::json;
using mcp::detail::http_client::fetch_request;
using mcp::detail::http_client::http_method;

void require_secure_url(std::string_view url, bool allow_http, std::string_view what) {
  if (url.starts_with("https://") || (allow_http && url.starts_with("http://"))) return;
  throw mcp::invalid_argument(std::string(what) + " must be an https URL: " + std::string(url));
}

std::vector<std::string> metadata_urls(std::string_view issuer) {
  auto parsed = boost::urls::parse_absolute_uri(issuer);
  if (!parsed) throw mcp::invalid_argument("the issuer is not an absolute URL: " + std::string(issuer));
  const std::string origin = std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_authority());
  std::string path(parsed->encoded_path());
  while (!path.empty() && path.back() == '/') path.pop_back();
  std::vector<std::string> urls{origin + "/.well-known/oauth-authorization-server" + path};
  if (!path.empty()) urls.push_back(origin + "/.well-known/openid-configuration" + path);
  urls.push_back(origin + path + "/.well-known/openid-configuration");
  return urls;
}

asio::awaitable<std::string> fetch_document(http_fetcher& fetcher, std::string url) {
  fetch_request request;
  request.url = url;
  request.headers.emplace_back("Accept", "application/json");
  auto response = co_await fetcher.fetch(std::move(request));
  if (response.status != 200)
    throw std::runtime_error(url + " answered HTTP " + std::to_string(response.status));
  co_return std::move(response.body);
}

asio::awaitable<json::object> fetch_issuer_metadata(http_fetcher& fetcher, std::string issuer, bool allow_http) {
  require_secure_url(issuer, allow_http, "the issuer");
  std::string failures;
  for (auto& url : metadata_urls(issuer)) {
    std::string document;
    try {
      document = co_await fetch_document(fetcher, url);
    } catch (const std::exception& e) {
      failures += std::string(failures.empty() ? "" : "; ") + e.what();
      continue;
    }
    boost::system::error_code ec;
    auto parsed = json::parse(document, ec);
    if (ec || !parsed.is_object()) {
      failures += (failures.empty() ? "" : "; ") + url + " is not a JSON object";
      continue;
    }
    const auto* named = parsed.as_object().if_contains("issuer");
    // RFC 8414 §3.3: a document for another issuer must not be used.
    if (!named || !named->is_string() || named->get_string() != issuer) {
      failures += (failures.empty() ? "" : "; ") + url + " names another issuer";
      continue;
    }
    co_return std::move(parsed.as_object());
  }
  throw std::runtime_error("no metadata for issuer " + issuer + ": " + failures);
}

}  // namespace mcp::auth::detail
