#include "http_rules.hpp"
#include "../detail/json_members.hpp"

#include "x_mcp_header.hpp"

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/methods.hpp>

namespace mcp::detail {
namespace {

// What a request's routing headers mirror: its envelope's protocol version
// (empty: a legacy request), its method, and the name or URI it names
// (empty for other methods).
struct routing_values {
  std::string_view protocol_version;
  std::string_view method;
  std::string_view name;
};

// `version`: the envelope's protocol version; empty: the one `params` names.
routing_values routing_values_of(std::string_view method, const json::object& params, std::string_view version) {
  const auto* meta = object_at(params, {"_meta"});
  routing_values values;
  values.protocol_version = version;
  if (version.empty() && meta) values.protocol_version = string_member(*meta, meta_key::protocol_version);
  values.method = method;
  const bool by_uri = values.method == methods::resources_read;
  // The tasks extension (SEP-2663) routes its methods by the task's id.
  const bool by_task = values.method == methods::tasks_get || values.method == methods::tasks_update ||
                       values.method == methods::tasks_cancel;
  if (by_task) values.name = string_member(params, "taskId");
  if (by_uri || values.method == methods::tools_call || values.method == methods::prompts_get)
    values.name = string_member(params, by_uri ? "uri" : "name");
  return values;
}

routing_values routing_values_of(const json::object& request) {
  static const json::object no_params;
  const auto* params = object_at(request, {"params"});
  return routing_values_of(string_member(request, "method"), params ? *params : no_params, {});
}

std::vector<std::pair<std::string, std::string>> headers_of(const routing_values& values) {
  if (values.protocol_version.empty()) return {};
  std::vector<std::pair<std::string, std::string>> headers{
      {"MCP-Protocol-Version", std::string(values.protocol_version)}, {"Mcp-Method", std::string(values.method)}};
  if (!values.name.empty()) headers.emplace_back("Mcp-Name", encode_header_value(values.name));
  return headers;
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
  json::object detail{{"header", header}, {"body", expected}};
  detail["received"] = received.empty() ? json::value(nullptr) : json::value(received);
  return {std::move(message), json::object{{"mismatch", std::move(detail)}}};
}

}  // namespace

body_summary summarize(const json::value& body) {
  body_summary out;
  auto look = [&](const json::value& v) {
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

std::optional<std::string> unknown_version_refusal(std::string_view version_header) {
  if (version_header.empty() || parse_protocol_version(version_header)) return std::nullopt;
  return "Bad Request: unsupported MCP-Protocol-Version " + std::string(version_header);
}

bool primes_sse_streams(protocol_version version) noexcept { return version >= protocol_version::v2025_11_25; }

bool is_modern_post(std::string_view version_header, const json::value& body) {
  const auto* message = body.if_object();
  if (!message) return false;
  if (const auto* params = object_at(*message, {"params"}); params && carries_envelope(*params)) return true;
  if (string_member(*message, "method") == methods::server_discover) return true;
  const auto header = parse_protocol_version(version_header);
  return header && is_modern(*header);
}

std::vector<std::pair<std::string, std::string>> routing_headers(const json::object& request) {
  return headers_of(routing_values_of(request));
}

std::vector<std::pair<std::string, std::string>> routing_headers(std::string_view method, const json::object& params,
                                                                 std::string_view version) {
  return headers_of(routing_values_of(method, params, version));
}

std::optional<header_mismatch> check_routing_headers(const received_routing_headers& received,
                                                     const json::object& request) {
  const auto expected = routing_values_of(request);
  if (expected.protocol_version.empty()) return std::nullopt;
  if (received.protocol_version != expected.protocol_version)
    return mismatch("MCP-Protocol-Version", received.protocol_version, expected.protocol_version);
  if (received.method != expected.method) return mismatch("Mcp-Method", received.method, expected.method);
  if (expected.name.empty()) return std::nullopt;  // another method, or the handler refuses the params
  const auto decoded = decode_header_value(received.name);
  if (!decoded || *decoded != expected.name) return mismatch("Mcp-Name", received.name, expected.name);
  return std::nullopt;
}

}  // namespace mcp::detail
