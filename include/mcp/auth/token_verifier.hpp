#pragma once
// How a protected MCP server checks an access token (OAuth 2.1 resource
// server): behind this interface, JWTs checked against the issuer's keys
// (jwt_verifier.hpp), token introspection (introspection_verifier.hpp), or
// your own.

#include <mcp/export.hpp>
#include <mcp/auth/principal.hpp>

#include <boost/asio/awaitable.hpp>

#include <chrono>
#include <string>

namespace mcp::auth {

namespace asio = boost::asio;

/// The outcome of checking one token.
struct MCP_API verification {
  /// Whether the token is accepted, and what the server answers otherwise.
  enum class outcome {
    valid,       ///< `who` is set; the server then checks scopes
    invalid,     ///< 401 `error="invalid_token"`: expired, forged, for another resource...
    unavailable  ///< 503 with Retry-After: the keys or the introspection endpoint cannot be reached
  };
  outcome result = outcome::invalid;  ///< Invalid unless set otherwise.
  principal who;                      ///< Who the token stands for, when `valid`.
  /// Why, for `error_description` (never the token itself).
  std::string description;
  /// For `unavailable`: when the client should try again.
  std::chrono::seconds retry_after{5};

  /// Accepted, for `p`.
  static verification valid(principal p);
  /// Refused: 401 with `why` as `error_description`.
  static verification invalid(std::string why);
  /// Cannot be checked now: 503 with `why` and Retry-After `retry_after`.
  static verification unavailable(std::string why, std::chrono::seconds retry_after);
};

/// Checks bearer tokens. The HTTP server calls verify() for every request to
/// a protected endpoint, from its executor; a verifier caches what it needs.
/// verify() must not throw for a bad token (it returns `invalid`) nor for an
/// unreachable dependency (`unavailable`), and must bound its waits.
class MCP_API token_verifier {
 public:
  virtual ~token_verifier() = default;
  /// Checks `token` (the bearer token, without the scheme). Called on one
  /// strand of the HTTP server: calls never run at once on two threads, but
  /// may interleave where they wait. An exception it throws anyway answers 503.
  virtual asio::awaitable<verification> verify(std::string token) = 0;
};

}  // namespace mcp::auth
