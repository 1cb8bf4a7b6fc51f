#include "url.hpp"

#include <mcp/error.hpp>

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace mcp::detail::http_client {

namespace urls = boost::urls;

namespace {

std::string lower(std::string text) {
  std::ranges::transform(text, text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

http_endpoint from_view(const urls::url_view& u) {
  http_endpoint ep;
  const auto scheme = u.scheme_id();
  if (scheme != urls::scheme::http && scheme != urls::scheme::https)
    throw mcp::invalid_argument("not an http or https URL: " + std::string(u.buffer()));
  ep.tls = scheme == urls::scheme::https;
  if (!u.has_authority() || u.encoded_host().empty())
    throw mcp::invalid_argument("the URL names no host: " + std::string(u.buffer()));
  if (u.has_userinfo())
    throw mcp::invalid_argument("credentials in the URL are not supported (set an Authorization header): " +
                                std::string(u.buffer()));
  ep.host = u.host_type() == urls::host_type::ipv6 || u.host_type() == urls::host_type::ipvfuture
                ? std::string(u.host_address())
                : std::string(u.host());
  if (u.has_port()) {
    if (u.port().empty() || u.port_number() == 0)
      throw mcp::invalid_argument("the URL has no valid port: " + std::string(u.buffer()));
    ep.port = std::to_string(u.port_number());
  } else {
    ep.port = ep.tls ? "443" : "80";
  }
  ep.host_header = std::string(u.encoded_host_and_port());
  if (ep.host_header.ends_with(':')) ep.host_header.pop_back();
  ep.target = std::string(u.encoded_target());
  if (ep.target.empty() || ep.target.front() != '/') ep.target.insert(0, "/");
  ep.url = std::string(u.buffer());
  if (u.has_fragment()) ep.url.erase(ep.url.find('#'));
  return ep;
}

}  // namespace

std::string http_endpoint::origin() const {
  const bool v6 = host.find(':') != std::string::npos;
  return lower(std::string(tls ? "https://" : "http://") + (v6 ? "[" + host + "]" : host) + ":" + port);
}

http_endpoint parse_endpoint(std::string_view url) {
  const auto parsed = urls::parse_uri(url);
  if (!parsed) throw mcp::invalid_argument("not a valid URL: " + std::string(url));
  return from_view(*parsed);
}

http_endpoint resolve_endpoint(const http_endpoint& base, std::string_view reference) {
  const auto base_url = urls::parse_uri(base.url);
  const auto ref = urls::parse_uri_reference(reference);
  if (!base_url || !ref)
    throw mcp::invalid_argument("the endpoint event holds no valid URI: " + std::string(reference));
  urls::url resolved;
  if (const auto rv = urls::resolve(*base_url, *ref, resolved); !rv)
    throw mcp::invalid_argument("cannot resolve the endpoint " + std::string(reference) + " against " + base.url);
  auto ep = from_view(resolved);
  if (ep.origin() != base.origin())
    throw mcp::invalid_argument("the endpoint event names another origin (" + ep.origin() + ", not " +
                                base.origin() + "); refused");
  return ep;
}

}  // namespace mcp::detail::http_client
