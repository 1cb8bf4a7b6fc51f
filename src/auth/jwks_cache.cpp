// jwks_cache.hpp

#include "jwks_cache.hpp"

#include "../detail/jose.hpp"

#include <mcp/log.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>

#include <stdexcept>

namespace mcp::auth::detail {

namespace json = boost::json;
namespace jose = mcp::detail::jose;

namespace {

std::string member(const json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

}  // namespace

key_set parse_jwks(std::string_view document) {
  boost::system::error_code ec;
  auto parsed = json::parse(document, ec);
  if (ec || !parsed.is_object()) throw std::runtime_error("the JWKS is not a JSON object");
  const auto* keys = parsed.as_object().if_contains("keys");
  if (!keys || !keys->is_array()) throw std::runtime_error("the JWKS has no `keys` array");
  key_set out;
  for (const auto& entry : keys->get_array()) {
    if (!entry.is_object()) continue;
    const auto& key = entry.get_object();
    verification_key k;
    k.kty = member(key, "kty");
    k.kid = member(key, "kid");
    k.alg = member(key, "alg");
    const auto use = member(key, "use");
    if ((k.kty != "RSA" && k.kty != "EC") || (!use.empty() && use != "sig")) continue;
    if (!jose::well_formed_jwk(key)) {
      sdk_log(log_category::auth, log_level::warn, "a key of the JWKS is malformed", {{"kid", k.kid}});
      continue;
    }
    k.public_key = jose::import_public_jwk(key);
    if (!k.public_key) {
      sdk_log(log_category::auth, log_level::warn, "a key of the JWKS cannot be read", {{"kid", k.kid}});
      continue;
    }
    out.push_back(std::move(k));
  }
  return out;
}

jwks_cache::jwks_cache(asio::any_io_executor ex, loader load, settings s)
    : load_(std::move(load)), settings_(std::move(s)), fetched_(std::move(ex)) {
  fetched_.expires_at(asio::steady_timer::time_point::max());
}

bool jwks_cache::has_kid(std::string_view kid) const {
  if (!keys_) return false;
  if (kid.empty()) return !keys_->empty();
  for (const auto& k : *keys_)
    if (k.kid == kid) return true;
  return false;
}

asio::awaitable<jwks_cache::lookup> jwks_cache::keys_for(std::string kid) {
  const auto now = settings_.now();
  const bool stale = !keys_ || now - last_fetch_ > settings_.max_age;
  const bool backing_off = failed_ && now - last_attempt_ < settings_.failure_backoff;
  const bool may_refresh = !keys_ || now - last_attempt_ >= settings_.min_refresh;
  if (!backing_off && (stale || (!has_kid(kid) && may_refresh))) {
    if (fetching_) {
      // One fetch for everyone: wait for the one under way (it is bounded).
      while (fetching_) co_await fetched_.async_wait(asio::as_tuple(asio::use_awaitable));
    } else {
      co_await refresh();
    }
  }
  lookup out;
  out.keys = keys_;
  out.unavailable = failed_;
  out.failure = failure_;
  co_return out;
}

asio::awaitable<void> jwks_cache::refresh() {
  fetching_ = true;
  ++fetches_;
  last_attempt_ = settings_.now();
  try {
    auto document = co_await load_();
    keys_ = std::make_shared<const key_set>(parse_jwks(document));
    last_fetch_ = settings_.now();
    failed_ = false;
    failure_.clear();
  } catch (const std::exception& e) {
    failed_ = true;
    failure_ = e.what();
    sdk_log(log_category::auth, log_level::warn, "cannot fetch the authorization server's keys", {{"error", failure_}});
  }
  fetching_ = false;
  fetched_.cancel();
}

}  // namespace mcp::auth::detail
