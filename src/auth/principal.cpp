// principal.hpp and token_verifier.hpp: identity, scope matching, outcomes.

#include <mcp/auth/principal.hpp>
#include <mcp/auth/token_verifier.hpp>

#include <algorithm>

namespace mcp::auth {

std::string principal::identity() const {
  // Issuer and subject name a user (or a client, for client_credentials);
  // the separator cannot occur in an issuer URL.
  if (!subject.empty()) return issuer + " " + subject;
  return issuer + " client:" + client_id;
}

bool principal::has_scope(std::string_view required) const {
  return std::ranges::any_of(scopes, [&](const std::string& granted) {
    return granted == required || (implies && implies(granted, required));
  });
}

std::vector<std::string> principal::missing_scopes(std::span<const std::string> required) const {
  std::vector<std::string> missing;
  for (const auto& scope : required)
    if (!has_scope(scope)) missing.push_back(scope);
  return missing;
}

std::vector<std::string> split_scopes(std::string_view scope) {
  std::vector<std::string> out;
  while (!scope.empty()) {
    const auto start = scope.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    scope.remove_prefix(start);
    const auto end = std::min(scope.find(' '), scope.size());
    out.emplace_back(scope.substr(0, end));
    scope.remove_prefix(end);
  }
  return out;
}

verification verification::valid(principal p) {
  verification v;
  v.result = outcome::valid;
  v.who = std::move(p);
  return v;
}

verification verification::invalid(std::string why) {
  verification v;
  v.result = outcome::invalid;
  v.description = std::move(why);
  return v;
}

verification verification::unavailable(std::string why, std::chrono::seconds retry_after) {
  verification v;
  v.result = outcome::unavailable;
  v.description = std::move(why);
  v.retry_after = retry_after;
  return v;
}

}  // namespace mcp::auth
