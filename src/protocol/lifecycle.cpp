#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/methods.hpp>

#include <algorithm>

namespace mcp {

namespace {

[[noreturn]] void bad_field(std::string_view where, std::string_view what) {
  throw protocol_error(errc::invalid_params,
                       "Invalid params: " + std::string(where) + " " + std::string(what));
}

const json::value& required(const json::object& obj, std::string_view key, std::string_view where) {
  const auto* v = obj.if_contains(key);
  if (!v) bad_field(std::string(where) + "/" + std::string(key), "is required");
  return *v;
}

std::string required_string(const json::object& obj, std::string_view key,
                            std::string_view where) {
  const auto& v = required(obj, key, where);
  if (!v.is_string()) bad_field(std::string(where) + "/" + std::string(key), "must be a string");
  return std::string(v.get_string());
}

std::optional<std::string> optional_string(const json::object& obj, std::string_view key) {
  const auto* v = obj.if_contains(key);
  if (v && v->is_string()) return std::string(v->get_string());
  return std::nullopt;
}

const json::object& required_object(const json::object& obj, std::string_view key,
                                    std::string_view where) {
  const auto& v = required(obj, key, where);
  if (!v.is_object()) bad_field(std::string(where) + "/" + std::string(key), "must be an object");
  return v.get_object();
}

}  // namespace

json::object to_json(const implementation& info, const dialect& d) {
  json::object out{{"name", info.name}, {"version", info.version}};
  if (d.titles && info.title) out["title"] = *info.title;
  if (d.icons) {
    if (info.description) out["description"] = *info.description;
    if (info.website_url) out["websiteUrl"] = *info.website_url;
    if (!info.icons.empty()) out["icons"] = info.icons;
  }
  return out;
}

implementation parse_implementation(const json::value& value, std::string_view where) {
  const auto* obj = value.if_object();
  if (!obj) bad_field(where, "must be an object");
  implementation info{required_string(*obj, "name", where), required_string(*obj, "version", where),
                      optional_string(*obj, "title"), optional_string(*obj, "description"),
                      optional_string(*obj, "websiteUrl"), {}};
  if (const auto* icons = obj->if_contains("icons"); icons && icons->is_array())
    info.icons = icons->get_array();
  return info;
}

json::object to_json(const initialize_request& req) {
  const auto version = parse_protocol_version(req.protocol_version);
  const auto& d = dialect_of(version.value_or(latest_legacy_version));
  return {{"protocolVersion", req.protocol_version},
          {"capabilities", req.capabilities},
          {"clientInfo", to_json(req.client_info, d)}};
}

initialize_request parse_initialize_request(const json::object& params) {
  return {required_string(params, "protocolVersion", "/params"),
          required_object(params, "capabilities", "/params"),
          parse_implementation(required(params, "clientInfo", "/params"), "/params/clientInfo")};
}

bool declares_feature(const json::object& capabilities, std::string_view kind, std::string_view feature) noexcept {
  const auto* entry = capabilities.if_contains(kind);
  const auto* value = entry && entry->is_object() ? entry->get_object().if_contains(feature) : nullptr;
  return value && value->is_bool() && value->get_bool();
}

json::object shape_capabilities(json::object capabilities, const dialect& d) {
  if (!d.completions) capabilities.erase("completions");
  if (!d.tasks) capabilities.erase("tasks");
  if (d.era != protocol_era::modern) capabilities.erase("extensions");
  return capabilities;
}

json::object to_json(const initialize_result& result) {
  const auto& d = dialect_of(result.version);
  json::object out{{"protocolVersion", to_string(result.version)},
                   {"capabilities", shape_capabilities(result.capabilities, d)},
                   {"serverInfo", to_json(result.server_info, d)}};
  if (result.instructions) out["instructions"] = *result.instructions;
  return out;
}

initialize_result parse_initialize_result(const json::object& result,
                                          std::span<const protocol_version> supported) {
  const auto text = required_string(result, "protocolVersion", "/result");
  const auto version = parse_protocol_version(text);
  if (!version || std::ranges::find(supported, *version) == supported.end())
    throw protocol_error(errc::invalid_params,
                         "Server answered with unsupported protocol version " + text,
                         json::object{{"requested", text}});
  return {*version, required_object(result, "capabilities", "/result"),
          parse_implementation(required(result, "serverInfo", "/result"), "/result/serverInfo"),
          optional_string(result, "instructions")};
}

std::optional<rpc_error> legacy_lifecycle::admit(std::string_view method) const {
  if (method == methods::ping) return std::nullopt;
  if (method == methods::initialize) {
    if (phase_ == phase::awaiting_initialize) return std::nullopt;
    return rpc_error{errc::invalid_request, "Invalid Request: the session is already initialized",
                     nullptr};
  }
  if (phase_ == phase::awaiting_initialize)
    return rpc_error{errc::invalid_request,
                     "Invalid Request: the session is not initialized; send initialize first",
                     nullptr};
  return std::nullopt;
}

}  // namespace mcp
