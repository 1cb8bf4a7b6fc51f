#include "request_rules.hpp"

#include <mcp/protocol/jsonrpc.hpp>

#include <algorithm>
#include <cctype>

namespace mcp::detail {
namespace {

// "localhost:8080" -> "localhost"; "[::1]:80" -> "[::1]".
std::string_view host_part(std::string_view authority) {
  if (authority.starts_with('[')) return authority.substr(0, authority.find(']') + 1);
  return authority.substr(0, authority.find(':'));
}

bool is_loopback_name(std::string_view host) {
  return host == "localhost" || host == "127.0.0.1" || host == "[::1]";
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
  // DNS rebinding: a page from elsewhere must not reach a local server.
  if (loopback_only) {
    const auto host = req[known_header::host];
    const bool allowed = is_loopback_name(host_part(host)) ||
                         std::ranges::find(allowed_hosts, host) != allowed_hosts.end();
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

body_summary summarize(const boost::json::value& body) {
  body_summary out;
  auto look = [&](const boost::json::value& v) {
    const auto* obj = v.if_object();
    if (!obj) return;
    const auto* method = obj->if_contains("method");
    const auto* id = obj->if_contains("id");
    if (!method || !id) return;
    const auto request = parse_request_id(*id);
    if (!request) return;  // the engine answers a bad id; nothing to route
    out.request_ids.push_back(to_json_text(*request));  // the key the engine's replies carry
    if (*method == "initialize") out.initialize = true;
  };
  if (const auto* batch = body.if_array())
    for (const auto& item : *batch) look(item);
  else
    look(body);
  return out;
}

}  // namespace mcp::detail
