#pragma once
// The JWT verifier's parts, apart so that tests can give it keys without a
// network: the signature check against a jwks_cache, and the claims check.

#include <mcp/auth/jwt_verifier.hpp>

#include "jwks_cache.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <memory>

namespace mcp::auth::detail {

/// The claims of an access token whose signature verified: `iss`, `aud`,
/// `exp` (required), `nbf` and `iat` (with the leeway); the principal they
/// name, or why not.
verification check_claims(const boost::json::object& claims, const jwt_verifier_options& options,
                          std::chrono::system_clock::time_point now);

class jwt_checker final : public token_verifier {
 public:
  jwt_checker(jwt_verifier_options options, std::shared_ptr<jwks_cache> keys);
  asio::awaitable<verification> verify(std::string token) override;

 private:
  jwt_verifier_options options_;
  std::shared_ptr<jwks_cache> keys_;
};

}  // namespace mcp::auth::detail
