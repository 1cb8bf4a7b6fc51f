// introspection_verifier.hpp: RFC 7662 §2 (the request, the answer), with
// client authentication of RFC 6749 §2.3.1 and the cache of token_cache.hpp.

#include <mcp/auth/introspection_verifier.hpp>
#include <mcp/error.hpp>

#include <mcp/base64.hpp>
#include <mcp/log.hpp>

#include "claims.hpp"
#include "issuer_metadata.hpp"
#include "token_cache.hpp"

#include <boost/json/parse.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace mcp::auth {

namespace {

using mcp::detail::http_client::fetch_options;
using mcp::detail::http_client::fetch_request;
using mcp::detail::http_client::http_method;
using detail::names_audience;
using detail::string_claim;
using detail::time_claim;
using std::chrono::system_clock;

// application/x-www-form-urlencoded: everything but the unreserved characters escaped.
std::string form_encode(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}


class introspection_verifier final : public token_verifier {
 public:
  introspection_verifier(asio::any_io_executor ex, introspection_verifier_options options)
      : options_(std::move(options)), cache_(options_.cache_size) {
    fetch_options fetching;
    fetching.ca_file = options_.ca_file;
    fetching.connect_timeout = options_.fetch_timeout;
    fetching.timeout = options_.fetch_timeout;
    fetching.max_body_size = 64 * 1024;
    fetching.allow_private_addresses = options_.allow_private_addresses;
    fetcher_ = std::make_unique<detail::http_fetcher>(std::move(ex), std::move(fetching));
    endpoint_ = options_.endpoint;
  }

  asio::awaitable<verification> verify(std::string token) override {
    const auto now = system_clock::now();
    if (auto cached = cache_.find(token, now)) co_return std::move(*cached);
    json::object answer;
    try {
      answer = co_await introspect(token);
    } catch (const std::exception& e) {
      sdk_log(log_category::auth, log_level::warn, "token introspection failed", {{"error", e.what()}});
      co_return verification::unavailable("the authorization server cannot be reached", options_.retry_after);
    }
    auto outcome = check(answer, now);
    auto expires = now + options_.cache_ttl;
    if (outcome.result == verification::outcome::valid && outcome.who.expiry)
      expires = std::min(expires, *outcome.who.expiry);
    cache_.put(token, outcome, expires);
    co_return outcome;
  }

 private:
  asio::awaitable<json::object> introspect(const std::string& token) {
    if (endpoint_.empty()) endpoint_ = co_await find_endpoint();
    fetch_request request;
    request.method = http_method::post;
    request.url = endpoint_;
    request.headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    request.headers.emplace_back("Accept", "application/json");
    request.body = "token=" + form_encode(token) + "&token_type_hint=access_token";
    if (options_.authentication == introspection_verifier_options::client_authentication::basic) {
      request.headers.emplace_back(
          "Authorization",
          "Basic " + base64_encode(form_encode(options_.client_id) + ":" + form_encode(options_.client_secret)));
    } else {
      request.body += "&client_id=" + form_encode(options_.client_id) +
                      "&client_secret=" + form_encode(options_.client_secret);
    }
    const auto response = co_await fetcher_->fetch(std::move(request));
    if (response.status != 200)
      throw std::runtime_error("the introspection endpoint answered HTTP " + std::to_string(response.status));
    boost::system::error_code ec;
    auto parsed = json::parse(response.body, ec);
    if (ec || !parsed.is_object()) throw std::runtime_error("the introspection answer is not a JSON object");
    co_return std::move(parsed.as_object());
  }

  asio::awaitable<std::string> find_endpoint() {
    const auto metadata = co_await detail::fetch_issuer_metadata(*fetcher_, options_.issuer, options_.allow_http);
    auto endpoint = string_claim(metadata, "introspection_endpoint");
    if (endpoint.empty()) throw std::runtime_error("the issuer's metadata has no introspection_endpoint");
    detail::require_secure_url(endpoint, options_.allow_http, "the introspection endpoint");
    co_return endpoint;
  }

  verification check(const json::object& answer, system_clock::time_point now) const {
    const auto* active = answer.if_contains("active");
    if (!active || !active->is_bool() || !active->get_bool()) return verification::invalid("the token is not active");
    const auto issuer = string_claim(answer, "iss");
    if (!options_.issuer.empty() && !issuer.empty() && issuer != options_.issuer)
      return verification::invalid("the token is from another issuer");
    if (!names_audience(answer, options_.audience)) return verification::invalid("the token is not for this resource");
    const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
    bool malformed = false;
    const auto exp = time_claim(answer, "exp", malformed);
    const auto nbf = time_claim(answer, "nbf", malformed);
    if (malformed) return verification::invalid("the token's times are not numbers");
    if (exp && *exp + options_.leeway.count() <= seconds) return verification::invalid("the token has expired");
    if (nbf && *nbf - options_.leeway.count() > seconds) return verification::invalid("the token is not valid yet");
    principal who;
    who.issuer = issuer.empty() ? options_.issuer : issuer;
    who.subject = string_claim(answer, "sub");
    who.client_id = string_claim(answer, "client_id");
    if (who.subject.empty() && who.client_id.empty())
      return verification::invalid("the token names neither a subject nor a client");
    who.scopes = split_scopes(string_claim(answer, "scope"));
    if (exp) who.expiry = system_clock::time_point(std::chrono::seconds(*exp));
    who.claims = answer;
    return verification::valid(std::move(who));
  }

  introspection_verifier_options options_;
  std::unique_ptr<detail::http_fetcher> fetcher_;
  std::string endpoint_;
  detail::token_cache cache_;
};

}  // namespace

std::shared_ptr<token_verifier> make_introspection_verifier(asio::any_io_executor ex,
                                                            introspection_verifier_options options) {
  if (options.audience.empty()) throw mcp::invalid_argument("introspection_verifier: the audience is required");
  if (options.endpoint.empty() && options.issuer.empty())
    throw mcp::invalid_argument("introspection_verifier: the endpoint or the issuer is required");
  if (!options.endpoint.empty())
    detail::require_secure_url(options.endpoint, options.allow_http, "the introspection endpoint");
  return std::make_shared<introspection_verifier>(std::move(ex), std::move(options));
}

}  // namespace mcp::auth
