// jwt_verifier.hpp: the checker (jwt_check.cpp) over a key cache whose
// loader finds the JWKS through the issuer's metadata.

#include <mcp/auth/jwt_verifier.hpp>
#include <mcp/error.hpp>

#include "issuer_metadata.hpp"
#include "jwt_check.hpp"

#include <boost/json/object.hpp>

#include <stdexcept>

namespace mcp::auth {

namespace {

using mcp::detail::http_client::fetch_options;

// Finds the JWKS URL once (the metadata names it), then fetches the keys.
struct jwks_loader {
  std::shared_ptr<detail::http_fetcher> fetcher;
  std::shared_ptr<std::string> jwks_uri;  // shared by the copies of the loader
  std::string issuer;
  bool allow_http = false;

  asio::awaitable<std::string> operator()() const {
    if (jwks_uri->empty()) {
      const auto metadata = co_await detail::fetch_issuer_metadata(*fetcher, issuer, allow_http);
      const auto* uri = metadata.if_contains("jwks_uri");
      if (!uri || !uri->is_string()) throw std::runtime_error("the issuer's metadata has no jwks_uri");
      detail::require_secure_url(uri->get_string(), allow_http, "jwks_uri");
      *jwks_uri = uri->get_string();
    }
    co_return co_await detail::fetch_document(*fetcher, *jwks_uri);
  }
};

}  // namespace

std::shared_ptr<token_verifier> make_jwt_verifier(asio::any_io_executor ex, jwt_verifier_options options) {
  if (options.issuer.empty()) throw mcp::invalid_argument("jwt_verifier: the issuer is required");
  if (options.audience.empty()) throw mcp::invalid_argument("jwt_verifier: the audience is required");
  detail::require_secure_url(options.issuer, options.allow_http, "the issuer");
  if (!options.jwks_uri.empty()) detail::require_secure_url(options.jwks_uri, options.allow_http, "jwks_uri");
  fetch_options fetching;
  fetching.ca_file = options.ca_file;
  fetching.connect_timeout = options.fetch_timeout;
  fetching.timeout = options.fetch_timeout;
  fetching.max_body_size = 256 * 1024;  // a JWKS or a metadata document
  fetching.allow_private_addresses = options.allow_private_addresses;
  jwks_loader loader{std::make_shared<detail::http_fetcher>(ex, std::move(fetching)),
                     std::make_shared<std::string>(options.jwks_uri), options.issuer, options.allow_http};
  detail::jwks_cache::settings settings;
  settings.min_refresh = options.min_refresh_interval;
  settings.max_age = options.max_key_age;
  auto keys = std::make_shared<detail::jwks_cache>(ex, std::move(loader), std::move(settings));
  return std::make_shared<detail::jwt_checker>(std::move(options), std::move(keys));
}

}  // namespace mcp::auth
