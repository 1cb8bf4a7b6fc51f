// bearer.hpp: RFC 6750 §2.1 (the header) and §3 (the challenge).

#include "bearer.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <cctype>

namespace mcp::auth::detail {

namespace {

// b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
bool is_b64token(std::string_view token) {
  const auto body_end = token.find_last_not_of('=');
  if (body_end == std::string_view::npos) return false;
  return std::all_of(token.begin(), token.begin() + static_cast<std::ptrdiff_t>(body_end) + 1, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~' ||
           c == '+' || c == '/';
  });
}

// A quoted-string of RFC 6750: %x20-21 / %x23-5B / %x5D-7E, so no quote or
// backslash (which is why nothing is escaped, only left out).
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (const char c : text)
    if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\') out += c;
  out += '"';
  return out;
}

}  // namespace

bearer_credentials read_bearer(const header_list& headers, std::size_t max_token_size, bool accept_dpop) {
  bearer_credentials found;
  std::size_t count = 0;
  std::string_view value;
  for (const auto& [name, v] : headers)
    if (name == "authorization") {
      ++count;
      value = v;
    }
  if (count == 0) return found;
  if (count > 1) {
    found.found = bearer_credentials::kind::several;
    return found;
  }
  // "Bearer" 1*SP b64token, the scheme in any case (RFC 9110 §11.1); DPoP the same way.
  const auto space = value.find(' ');
  const auto scheme = value.substr(0, space);
  found.dpop = accept_dpop && boost::beast::iequals(scheme, "dpop");
  if (space == std::string_view::npos || !(boost::beast::iequals(scheme, "bearer") || found.dpop)) {
    found.found = bearer_credentials::kind::malformed;
    return found;
  }
  auto token = value.substr(space);
  token.remove_prefix(std::min(token.find_first_not_of(' '), token.size()));
  while (!token.empty() && (token.back() == ' ' || token.back() == '\t')) token.remove_suffix(1);
  if (token.size() > max_token_size) {
    found.found = bearer_credentials::kind::too_long;
    return found;
  }
  // A second token after a space, or characters outside b64token.
  if (!is_b64token(token)) {
    found.found = bearer_credentials::kind::malformed;
    return found;
  }
  found.found = bearer_credentials::kind::token;
  found.token = token;
  return found;
}

bool has_query_token(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) return false;
  auto url = boost::urls::parse_origin_form(target);
  if (!url) return target.find("access_token", question) != std::string_view::npos;  // be safe
  return url->params().contains("access_token");
}

std::string www_authenticate(const challenge& c) {
  std::string out = c.scheme;
  bool first = true;
  const auto param = [&out, &first](std::string_view name, std::string_view value) {
    out += first ? " " : ", ";
    first = false;
    out += name;
    out += '=';
    out += quoted(value);
  };
  if (!c.algs.empty()) {
    std::string joined;
    for (const auto& a : c.algs) joined += (joined.empty() ? "" : " ") + a;
    param("algs", joined);
  }
  if (!c.error.empty()) param("error", c.error);
  if (!c.description.empty()) param("error_description", c.description);
  if (!c.resource_metadata.empty()) param("resource_metadata", c.resource_metadata);
  if (!c.scopes.empty()) {
    std::string joined;
    for (const auto& s : c.scopes) joined += (joined.empty() ? "" : " ") + s;
    param("scope", joined);
  }
  return out;
}

}  // namespace mcp::auth::detail
