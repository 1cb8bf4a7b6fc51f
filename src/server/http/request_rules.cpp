#include "request_rules.hpp"

#include <mcp/protocol/jsonrpc.hpp>

#include <boost/beast/core/string.hpp>

#include <algorithm>
#include <cctype>

namespace mcp::detail {
namespace {

// "localhost:8080" -> "localhost"; "[::1]:80" -> "[::1]".
std::string_view host_part(std::string_view authority) {
  if (authority.starts_with('[')) return authority.substr(0, authority.find(']') + 1);
  return authority.substr(0, authority.find(':'));
}

// (Beast's iequals: Boost.Algorithm's consults the locale, at a cost every request paid.)
bool is_loopback_name(std::string_view host) {
  return boost::beast::iequals(host, "localhost") || host == "127.0.0.1" || host == "[::1]";
}

// An entry with a port is the whole Host value; one without, any port.
bool host_listed(std::string_view host, const std::vector<std::string>& allowed_hosts) {
  return std::ranges::any_of(allowed_hosts, [&](const std::string& entry) {
    const bool has_port = host_part(entry).size() != entry.size();
    return boost::beast::iequals(has_port ? host : host_part(host), entry);
  });
}

}  // namespace

bool accepts(const http_request& req, std::string_view type) {
  const auto accept = req[known_header::accept];
  return accept.empty() || accept.find(type) != std::string_view::npos ||
         accept.find("*/*") != std::string_view::npos;
}

bool prefers_event_stream(const http_request& req) {
  const auto accept = req[known_header::accept];
  const auto sse = accept.find("text/event-stream");
  return sse != std::string_view::npos && sse < accept.find("application/json");
}

std::optional<std::string> origin_refusal(const http_request& req, bool loopback_only,
                                          const std::vector<std::string>& allowed_hosts,
                                          const std::vector<std::string>& allowed_origins) {
  // DNS rebinding: a page of the attacker's, once its name resolves to this
  // server's address (127.0.0.1, or one on the intranet the browser is in),
  // talks to the server with the attacker's name as Host. A Host the server
  // knows as its own is what tells such a request apart.
  if (loopback_only || !allowed_hosts.empty()) {
    const auto host = req[known_header::host];
    const bool allowed = (loopback_only && is_loopback_name(host_part(host))) || host_listed(host, allowed_hosts);
    if (!allowed) return "Forbidden: Host " + std::string(host) + " is not allowed";
  }
  const auto origin = req[known_header::origin];
  if (origin.empty()) return std::nullopt;
  const auto scheme_end = origin.find("://");
  const auto authority = scheme_end == std::string_view::npos ? origin : origin.substr(scheme_end + 3);
  if (is_loopback_name(host_part(authority))) return std::nullopt;
  if (std::ranges::find(allowed_origins, origin) != allowed_origins.end()) return std::nullopt;
  return "Forbidden: Origin " + std::string(origin) + " is not allowed";
}

boost::json::value read_json_body(const http_request& req, std::optional<body_refusal>& refused) {
  if (!req[known_header::content_type].starts_with("application/json")) {
    refused = body_refusal{http::status::unsupported_media_type, errc::invalid_request,
                           "Unsupported Media Type: Content-Type must be application/json"};
    return {};
  }
  boost::system::error_code ec;
  auto body = parse_json(req.body(), ec);
  if (ec) refused = body_refusal{http::status::bad_request, errc::parse_error, "Parse error: " + ec.message()};
  return body;
}

}  // namespace mcp::detail
