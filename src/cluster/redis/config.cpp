#include "config.hpp"

#include <mcp/error.hpp>

#include <boost/url/parse.hpp>
#include <boost/url/url_view.hpp>

#include <charconv>
#include <stdexcept>

namespace mcp::detail::redis {

namespace urls = boost::urls;

namespace {

[[noreturn]] void reject(std::string_view url, const std::string& why) {
  throw mcp::invalid_argument("redis URL '" + std::string(url) + "': " + why +
                              " (expected redis://[[user]:password@]host[:port][/db])");
}

}  // namespace

std::string config::endpoint() const {
  const bool ipv6 = host.find(':') != std::string::npos;
  return (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

config config::from_url(std::string_view text) {
  const auto parsed = urls::parse_uri(text);
  if (!parsed) reject(text, "not a URL");
  const urls::url_view u = *parsed;
  if (u.scheme() == "rediss") reject(text, "TLS (rediss://) is not supported");
  if (u.scheme() != "redis") reject(text, "the scheme must be redis");
  if (!u.has_authority() || u.host_type() == urls::host_type::none || u.encoded_host().empty())
    reject(text, "no host");
  if (u.host_type() == urls::host_type::ipvfuture) reject(text, "unsupported host");
  if (u.has_query()) reject(text, "query parameters are not supported");
  if (u.has_fragment()) reject(text, "a fragment is not allowed");

  config c;
  c.host = u.host_address();
  if (u.has_port()) {
    // Boost.URL accepts any digits; 0 and values past 65535 are not ports.
    const auto digits = u.port();
    unsigned value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || value == 0 || value > 65535)
      reject(text, "the port must be a number from 1 to 65535");
    c.port = static_cast<std::uint16_t>(value);
  }
  if (u.has_userinfo()) {
    c.user = u.user();
    if (u.has_password() && !u.encoded_password().empty()) c.password = u.password();
    if (!c.password && !c.user.empty()) reject(text, "a user needs a password (redis://user:password@host)");
  }
  const auto path = u.encoded_path();
  if (!path.empty() && path != "/") {
    const auto digits = std::string_view(path).substr(1);
    int db = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), db);
    if (path.front() != '/' || ec != std::errc() || end != digits.data() + digits.size() || db < 0)
      reject(text, "the path must be a database number (/0, /1, ...)");
    c.database = db;
  }
  return c;
}

}  // namespace mcp::detail::redis
