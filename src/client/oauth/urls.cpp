#include "urls.hpp"

#include <mcp/client/oauth.hpp>

#include <boost/algorithm/string/case_conv.hpp>
#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace mcp::detail::oauth {

namespace {

boost::urls::url parse_absolute(std::string_view text) {
  auto parsed = boost::urls::parse_uri(text);
  if (!parsed) throw oauth_error("not an absolute URL: " + std::string(text));
  boost::urls::url url(*parsed);
  url.remove_fragment();
  if (url.scheme_id() != boost::urls::scheme::http && url.scheme_id() != boost::urls::scheme::https)
    throw oauth_error("not an http(s) URL: " + std::string(text));
  if (url.host().empty()) throw oauth_error("a URL without a host: " + std::string(text));
  return url;
}

std::string lower(std::string_view s) { return boost::algorithm::to_lower_copy(std::string(s)); }

// The path without a lone or trailing '/'.
std::string trimmed_path(const boost::urls::url& url) {
  std::string path(url.encoded_path());
  while (!path.empty() && path.back() == '/') path.pop_back();
  return path;
}

}  // namespace

void require_http_url(std::string_view url, std::string_view what) {
  try {
    (void)parse_absolute(url);
  } catch (const oauth_error& e) {
    throw oauth_error(std::string(what) + ": " + e.what());
  }
}

std::string origin_of(std::string_view text) {
  const auto url = parse_absolute(text);
  return lower(url.scheme()) + "://" + lower(url.encoded_host_and_port());
}

std::string canonical_resource(std::string_view text) {
  auto url = parse_absolute(text);
  std::string out = origin_of(text);
  std::string path(url.encoded_path());
  if (path != "/") out += path;
  if (url.has_query()) out += "?" + std::string(url.encoded_query());
  return out;
}

std::vector<std::string> protected_resource_metadata_urls(std::string_view server_url) {
  const auto url = parse_absolute(server_url);
  const auto origin = origin_of(server_url);
  const auto path = trimmed_path(url);
  std::vector<std::string> urls;
  if (!path.empty()) urls.push_back(origin + "/.well-known/oauth-protected-resource" + path);
  urls.push_back(origin + "/.well-known/oauth-protected-resource");
  return urls;
}

std::vector<std::string> authorization_server_metadata_urls(std::string_view issuer) {
  const auto url = parse_absolute(issuer);
  const auto origin = origin_of(issuer);
  const auto path = trimmed_path(url);
  if (path.empty())
    return {origin + "/.well-known/oauth-authorization-server", origin + "/.well-known/openid-configuration"};
  return {origin + "/.well-known/oauth-authorization-server" + path,
          origin + "/.well-known/openid-configuration" + path, origin + path + "/.well-known/openid-configuration"};
}

bool resource_covers(std::string_view resource, std::string_view server_url) {
  try {
    if (origin_of(resource) != origin_of(server_url)) return false;
    const auto prefix = trimmed_path(parse_absolute(resource));
    const auto path = trimmed_path(parse_absolute(server_url));
    return path == prefix || (path.starts_with(prefix) && path[prefix.size()] == '/');
  } catch (const oauth_error&) {
    return false;
  }
}

std::string form_encode(const form& fields) {
  boost::urls::url scratch("x:");
  auto params = scratch.params();
  for (const auto& [name, value] : fields) params.append({name, value});
  // Form encoding spells a space '+', and needs '+' itself escaped.
  std::string out;
  for (const char c : scratch.encoded_query()) {
    if (c == '+') out += "%2B";
    else out += c;
  }
  return out;
}

std::string with_query(std::string_view text, const form& fields) {
  auto url = parse_absolute(text);
  auto params = url.params();
  for (const auto& [name, value] : fields) params.append({name, value});
  return std::string(url.buffer());
}

std::map<std::string, std::string> query_of(std::string_view text) {
  std::map<std::string, std::string> out;
  auto parsed = boost::urls::parse_uri_reference(text);
  if (!parsed) return out;
  for (const auto& param : parsed->params()) out.emplace(param.key, param.value);
  return out;
}

std::string resolve_reference(std::string_view base, std::string_view reference) {
  auto ref = boost::urls::parse_uri_reference(reference);
  if (!ref) throw oauth_error("a redirect to an invalid URL: " + std::string(reference));
  boost::urls::url out;
  const auto resolved = boost::urls::resolve(parse_absolute(base), *ref, out);
  if (!resolved) throw oauth_error("a redirect to an invalid URL: " + std::string(reference));
  return std::string(out.buffer());
}

bool is_https(std::string_view text) {
  auto parsed = boost::urls::parse_absolute_uri(text);
  return parsed && parsed->scheme_id() == boost::urls::scheme::https;
}

void require_https(std::string_view url, bool allow_http_loopback, std::string_view what) {
  if (!is_https(url) && !(allow_http_loopback && is_loopback(url)))
    throw oauth_error(std::string(what) + " " + std::string(url) + " is not https");
}

bool is_loopback(std::string_view text) {
  auto parsed = boost::urls::parse_absolute_uri(text);
  if (!parsed) return false;
  const auto host = lower(parsed->encoded_host());
  return host == "localhost" || host.starts_with("127.") || host == "[::1]";
}

}  // namespace mcp::detail::oauth
