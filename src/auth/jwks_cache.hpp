#pragma once
// The issuer's signing keys, as OpenSSL keys, kept between requests. They are
// fetched when first needed, when older than a maximum age, and when a token
// names a key id they do not have (the issuer rotated its keys), at most once
// per `min_refresh` so that tokens with made-up key ids cannot make the
// server hammer the issuer. One fetch at a time: requests that need the keys
// meanwhile wait for it.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

typedef struct evp_pkey_st EVP_PKEY;

namespace mcp::auth::detail {

namespace asio = boost::asio;

/// One public key of a JWKS that may verify signatures.
struct verification_key {
  std::string kid;
  std::string kty;  ///< RSA or EC
  std::string alg;  ///< the key's own `alg`, when it names one
  std::shared_ptr<EVP_PKEY> public_key;  ///< as OpenSSL reads it (detail/jose.hpp)
};
using key_set = std::vector<verification_key>;

/// The signature keys of a JWKS document; keys for encryption, symmetric
/// keys and keys that are not a usable public key (detail/jose.hpp's
/// import_public_jwk) are left out. Throws std::runtime_error
/// when the document is not a JWKS.
key_set parse_jwks(std::string_view document);

class jwks_cache {
 public:
  using clock = std::chrono::steady_clock;
  /// Returns the JWKS document; throws when it cannot (unreachable, timeout,
  /// not 200). Must bound its own waits.
  using loader = std::function<asio::awaitable<std::string>()>;

  struct settings {
    std::chrono::seconds min_refresh{30};
    std::chrono::seconds max_age{3600};
    /// After a failed fetch, the next one waits this long.
    std::chrono::milliseconds failure_backoff{1000};
    std::function<clock::time_point()> now = [] { return clock::now(); };
  };

  jwks_cache(asio::any_io_executor ex, loader load, settings s);

  struct lookup {
    std::shared_ptr<const key_set> keys;  ///< may be null (never fetched)
    /// The last fetch failed: a key missing may be there once it succeeds.
    bool unavailable = false;
    std::string failure;
  };

  /// The keys, fetched again first when needed for `kid` (empty: any key).
  asio::awaitable<lookup> keys_for(std::string kid);

  /// Fetches attempted so far (for tests and diagnostics).
  std::size_t fetches() const noexcept { return fetches_; }

 private:
  bool has_kid(std::string_view kid) const;
  asio::awaitable<void> refresh();

  loader load_;
  settings settings_;
  asio::steady_timer fetched_;  // cancelled when a fetch ends: wakes the requests waiting for it
  std::shared_ptr<const key_set> keys_;
  clock::time_point last_fetch_{};   // of the last successful fetch
  clock::time_point last_attempt_{};
  bool fetching_ = false;
  bool failed_ = false;
  std::string failure_;
  std::size_t fetches_ = 0;
};

}  // namespace mcp::auth::detail
