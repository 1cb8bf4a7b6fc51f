#include "request_rules.hpp"

#include "../../protocol/x_mcp_header.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/methods.hpp>

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

std::string_view string_member(const boost::json::object& object, std::string_view key) {
  const auto* value = object.if_contains(key);
  return value && value->is_string() ? std::string_view(value->get_string()) : std::string_view();
}

header_mismatch mismatch(std::string_view header, std::string_view received, std::string_view expected) {
  std::string message = "Header mismatch: ";
  if (received.empty()) {
    message += "the ";
    message += header;
    message += " header is missing";
  } else {
    message += header;
    message += " header value '";
    message += received;
    message += "' does not match body value '";
    message += expected;
    message += "'";
  }
  boost::json::object detail{{"header", header}, {"body", expected}};
  detail["received"] = received.empty() ? boost::json::value(nullptr) : boost::json::value(received);
  return {std::move(message), boost::json::object{{"mismatch", std::move(detail)}}};
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
    if (*method == methods::initialize) out.initialize = true;
  };
  if (const auto* batch = body.if_array())
    for (const auto& item : *batch) look(item);
  else
    look(body);
  return out;
}

std::optional<std::string> unknown_version_refusal(const http_request& req) {
  const auto version = req[known_header::mcp_protocol_version];
  if (version.empty() || parse_protocol_version(version)) return std::nullopt;
  return "Bad Request: unsupported MCP-Protocol-Version " + std::string(version);
}

bool is_modern_post(const http_request& req, const boost::json::value& body) {
  const auto* message = body.if_object();
  if (!message) return false;
  const auto* params = message->if_contains("params");
  if (params && params->is_object() && carries_envelope(params->get_object())) return true;
  if (string_member(*message, "method") == methods::server_discover) return true;
  const auto header = parse_protocol_version(req[known_header::mcp_protocol_version]);
  return header && dialect_of(*header).era == protocol_era::modern;
}

std::optional<header_mismatch> check_routing_headers(const http_request& req,
                                                     const boost::json::object& request) {
  static const boost::json::object no_params;
  const auto* given = request.if_contains("params");
  const auto& params = given && given->is_object() ? given->get_object() : no_params;
  const auto* meta = params.if_contains("_meta");
  const auto version = meta && meta->is_object() ? string_member(meta->get_object(), meta_key::protocol_version)
                                                 : std::string_view();
  if (version.empty()) return std::nullopt;
  const auto version_header = req[known_header::mcp_protocol_version];
  if (version_header != version) return mismatch("MCP-Protocol-Version", version_header, version);
  const auto method = string_member(request, "method");
  const auto method_header = req[known_header::mcp_method];
  if (method_header != method) return mismatch("Mcp-Method", method_header, method);
  const bool by_uri = method == methods::resources_read;
  if (!by_uri && method != methods::tools_call && method != methods::prompts_get) return std::nullopt;
  const auto name = string_member(params, by_uri ? "uri" : "name");
  if (name.empty()) return std::nullopt;  // the handler refuses the params
  const auto name_header = req[known_header::mcp_name];
  const auto decoded = decode_header_value(name_header);
  if (!decoded || *decoded != name) return mismatch("Mcp-Name", name_header, name);
  return std::nullopt;
}

}  // namespace mcp::detail
