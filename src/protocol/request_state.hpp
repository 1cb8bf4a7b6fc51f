#pragma once
// The `requestState` of 2026-07-28 multi-round requests (basic/patterns/mrtr,
// "Server Requirements" 4-5): what a server carries from one round to the
// next, through the client, which must neither forge nor alter it, nor
// replay it later, on another request or as another principal. A state is
// signed (HMAC-SHA256), not encrypted: the client can read it.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

namespace json = boost::json;

/// What travels between the rounds of one multi-round request.
struct request_state_payload {
  json::object answers;  ///< input responses gathered in earlier rounds, by key
  json::value carried;   ///< the handler's own value (null when none)
};

/// Identifies the request a state belongs to: its method, a SHA-256 digest of
/// its params without `_meta`, `inputResponses` and `requestState` (serialized
/// canonically: object keys sorted, recursively, so member order does not
/// matter), and the principal (e.g. a digest of the credentials; may be
/// empty). One digest of the three, in hex: the principal is not readable in
/// the state.
std::string request_binding(std::string_view method, const json::object& params, std::string_view principal);

class request_state_codec {
 public:
  /// `key`: the HMAC-SHA256 key; empty = a random 32-byte key made once per
  /// process. `ttl`: how long a sealed state is accepted.
  request_state_codec(std::string key, std::chrono::seconds ttl);

  /// "v1.<base64url payload>.<base64url mac>", the MAC being HMAC-SHA256 of
  /// "v1.<base64url payload>"; the payload is a JSON object of the binding,
  /// the expiry (unix ms), the answers and the carried value.
  std::string seal(const request_state_payload& payload, std::string_view binding,
                   std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) const;

  /// The payload, or nullopt when the state is malformed, too long (> 1 MiB),
  /// its MAC does not verify, it has expired, or it was sealed for another
  /// binding. Never throws on what the client sent.
  std::optional<request_state_payload> open(
      std::string_view state, std::string_view binding,
      std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) const;

 private:
  // The key given, or the process's own, drawn on first use: an engine is
  // made for every stateless request, and the random bytes of the first one
  // cost OpenSSL's initialisation (about 8 million instructions) in a
  // server's start-up, whether any request ever needed a state or not.
  const std::string& key() const;

  std::string key_;  // empty: the process's key
  std::chrono::seconds ttl_;
};

}  // namespace mcp::detail
