#pragma once
// Who a verified access token stands for: what a protected server's handlers
// see of the caller (request_context::principal()).

#include <mcp/export.hpp>

#include <boost/json/object.hpp>

#include <chrono>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::auth {

namespace json = boost::json;

/// Whether a granted scope covers a required one, for scope hierarchies
/// ("admin" implies "read"). Null: a scope covers only itself (exact match).
using scope_implication = std::function<bool(std::string_view granted, std::string_view required)>;

/// The caller a verified token names, with the token's claims.
struct MCP_API principal {
  std::string issuer;     ///< `iss`
  std::string subject;    ///< `sub` (the user, or the client for client_credentials)
  std::string client_id;  ///< `client_id` (or `azp`), when the token names it
  std::vector<std::string> scopes;  ///< `scope` (space separated) or `scp`
  json::object claims;              ///< every claim of the token (or introspection answer)
  std::optional<std::chrono::system_clock::time_point> expiry;  ///< `exp`
  /// How has_scope() compares scopes; set by the server from its options.
  scope_implication implies = nullptr;

  /// What a session is bound to: the issuer and subject, or the client id
  /// when the token has no subject. A refreshed token keeps it.
  std::string identity() const;
  /// Whether the granted scopes cover `required`.
  bool has_scope(std::string_view required) const;
  /// The scopes of `required` the token does not cover, in order.
  std::vector<std::string> missing_scopes(std::span<const std::string> required) const;
};

/// The JSON-RPC error code of a request refused for want of scopes (a tool,
/// resource or prompt's `required_scopes`), where HTTP cannot say 403; its
/// `data` is `{"requiredScopes": [...]}`. (In the implementation-defined range.)
inline constexpr int insufficient_scope_code = -32010;

/// The scopes of a space-separated `scope` value.
MCP_API std::vector<std::string> split_scopes(std::string_view scope);

}  // namespace mcp::auth
