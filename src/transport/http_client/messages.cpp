#include "messages.hpp"

#include <mcp/protocol/envelope.hpp>

#include "../../protocol/x_mcp_header.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace mcp::detail::http_client {

outgoing_facts inspect_outgoing(std::string_view frame) {
  outgoing_facts facts;
  boost::system::error_code ec;
  const auto value = json::parse(frame, ec);
  if (ec) return facts;
  auto look = [&](const json::value& v) {
    const auto* obj = v.if_object();
    if (!obj) return;
    const auto* method = obj->if_contains("method");
    if (!method || !method->is_string()) return;
    const auto* id = obj->if_contains("id");
    if (!id) {
      if (method->get_string() == "notifications/initialized") facts.initialized = true;
      if (method->get_string() == "notifications/cancelled") {
        const auto* params = obj->if_contains("params");
        const auto* cancelled = params && params->is_object() ? params->get_object().if_contains("requestId") : nullptr;
        if (cancelled)
          if (auto request = parse_request_id(*cancelled)) facts.cancelled.push_back(to_json_text(*request));
      }
      return;
    }
    if (auto request = parse_request_id(*id)) {
      facts.requests.push_back(std::move(*request));
      if (method->get_string() == "initialize") facts.initialize = true;
    }
  };
  if (const auto* batch = value.if_array()) {
    for (const auto& item : *batch) look(item);
    return facts;
  }
  look(value);
  const auto* params = value.is_object() ? value.get_object().if_contains("params") : nullptr;
  if (facts.requests.empty() || !params || !params->is_object() || !carries_envelope(params->get_object()))
    return facts;
  const auto& p = params->get_object();
  const auto& version = p.at("_meta").at(meta_key::protocol_version);
  if (version.is_string()) facts.protocol_version = version.get_string();
  facts.method = value.at("method").get_string();
  const auto* named = p.if_contains(facts.method == "resources/read" ? "uri" : "name");
  if (named && named->is_string() &&
      (facts.method == "tools/call" || facts.method == "prompts/get" || facts.method == "resources/read"))
    facts.name = named->get_string();
  return facts;
}


std::vector<std::pair<std::string, std::string>> routing_headers(const outgoing_facts& facts) {
  std::vector<std::pair<std::string, std::string>> headers{{"MCP-Protocol-Version", facts.protocol_version},
                                                           {"Mcp-Method", facts.method}};
  if (!facts.name.empty()) headers.emplace_back("Mcp-Name", encode_header_value(facts.name));
  return headers;
}

inbound_facts inspect_inbound(std::string_view text) {
  inbound_facts facts;
  boost::system::error_code ec;
  const auto value = json::parse(text, ec);
  if (ec) return facts;
  facts.valid = true;
  auto look = [&](const json::value& v, bool alone) {
    const auto* obj = v.if_object();
    if (!obj || obj->contains("method")) return;
    const auto* id = obj->if_contains("id");
    if (!id || id->is_null()) {
      if (alone && obj->contains("error")) facts.error_without_id = true;
      return;
    }
    if (auto answered = parse_request_id(*id)) facts.answered.push_back(to_json_text(*answered));
  };
  if (const auto* batch = value.if_array())
    for (const auto& item : *batch) look(item, false);
  else
    look(value, true);
  return facts;
}

std::string error_answer(const request_id& id, std::string message, json::value data) {
  return serialize(make_error(id, transport_error_code, std::move(message), std::move(data)));
}

std::string http_status_answer(const request_id& id, std::string_view request, unsigned status,
                               std::string_view reason, std::string_view body, std::string_view session_id) {
  json::object data{{"httpStatus", status}};
  std::string message = std::string(request) + " answered HTTP " + std::to_string(status);
  if (!reason.empty()) message += " " + std::string(reason);
  int code = transport_error_code;
  if (status == 404 && !session_id.empty()) {
    data["sessionExpired"] = true;
    message += ": the session " + std::string(session_id) +
               " has expired or was ended by the server; initialize a new session";
    return serialize(make_error(id, code, std::move(message), std::move(data)));
  }
  boost::system::error_code ec;
  const auto parsed = json::parse(body, ec);
  const json::object* error = nullptr;
  if (!ec && parsed.is_object()) {
    if (const auto* e = parsed.get_object().if_contains("error")) error = e->if_object();
  }
  if (error) {
    if (const auto* c = error->if_contains("code"); c && c->is_int64()) code = static_cast<int>(c->get_int64());
    if (const auto* m = error->if_contains("message"); m && m->is_string())
      message += ": " + std::string(m->get_string());
    if (const auto* d = error->if_contains("data")) data["serverData"] = *d;
  } else if (!body.empty() && body.size() <= 200 && ec) {
    message += ": " + std::string(body);  // a short text body says why
  }
  return serialize(make_error(id, code, std::move(message), std::move(data)));
}

std::string with_id(std::string_view text, const request_id& id) {
  boost::system::error_code ec;
  auto value = json::parse(text, ec);
  if (ec || !value.is_object()) return std::string(text);
  value.get_object()["id"] = to_json(id);
  return json::serialize(value);
}

}  // namespace mcp::detail::http_client
