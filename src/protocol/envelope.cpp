#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"
#include "modern_era.hpp"

#include <mcp/json/convert.hpp>

#include <boost/json/array.hpp>

#include <algorithm>

namespace mcp {

namespace {

const json::object* meta_of(const json::object& params) noexcept { return detail::object_at(params, {"_meta"}); }

bool is_lower_hex(std::string_view text) noexcept {
  return std::ranges::all_of(text, [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool all_zero(std::string_view text) noexcept {
  return std::ranges::all_of(text, [](char c) { return c == '0'; });
}

std::string string_or_empty(const json::object& meta, std::string_view key) {
  const auto* value = meta.if_contains(key);
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

trace_context read_trace(const json::object& meta) {
  trace_context trace;
  trace.traceparent = string_or_empty(meta, "traceparent");
  if (!valid_traceparent(trace.traceparent)) return {};
  trace.tracestate = string_or_empty(meta, "tracestate");
  trace.baggage = string_or_empty(meta, "baggage");
  return trace;
}

[[noreturn]] void refuse(std::string_view problem, json::array keys) {
  std::string message = "Invalid params: the request's _meta envelope has ";
  message += problem;
  message += ": ";
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) message += ", ";
    message += keys[i].as_string();
  }
  throw protocol_error(errc::invalid_params, std::move(message),
                       json::object{{"envelope", json::object{{problem, std::move(keys)}}}});
}

}  // namespace

// W3C Trace Context, "traceparent Header": version-traceid-parentid-flags in
// lower-case hex; version ff, an all-zero trace id or parent id are invalid.
// A later version may append fields after the flags.
bool valid_traceparent(std::string_view text) noexcept {
  if (text.size() < 55 || text[2] != '-' || text[35] != '-' || text[52] != '-') return false;
  if (text.size() > 55 && text[55] != '-') return false;
  const auto version = text.substr(0, 2);
  const auto trace_id = text.substr(3, 32);
  const auto parent_id = text.substr(36, 16);
  const auto flags = text.substr(53, 2);
  if (!is_lower_hex(version) || !is_lower_hex(trace_id) || !is_lower_hex(parent_id) || !is_lower_hex(flags))
    return false;
  if (version == "ff" || (version == "00" && text.size() != 55)) return false;
  return !all_zero(trace_id) && !all_zero(parent_id);
}

trace_context trace_of(const json::object& params) {
  const auto* meta = meta_of(params);
  return meta ? read_trace(*meta) : trace_context{};
}

void continue_trace(json::object& params, const trace_context& trace) {
  if (trace.empty()) return;
  auto& meta = params["_meta"];
  if (!meta.is_object()) meta = json::object{};
  auto& fields = meta.get_object();
  if (fields.contains("traceparent")) return;
  fields["traceparent"] = trace.traceparent;
  if (!trace.tracestate.empty()) fields["tracestate"] = trace.tracestate;
  if (!trace.baggage.empty()) fields["baggage"] = trace.baggage;
}


json::object client_envelope(protocol_version version, const implementation& client_info,
                             json::object client_capabilities, std::optional<logging_level> log_level) {
  json::object meta{{meta_key::protocol_version, to_string(version)},
                    {meta_key::client_info, to_json(client_info, dialect_of(version))},
                    {meta_key::client_capabilities, std::move(client_capabilities)}};
  if (log_level) meta[meta_key::log_level] = to_string(*log_level);
  return meta;
}

bool carries_envelope(const json::object& params) noexcept {
  const auto* meta = meta_of(params);
  return meta && meta->contains(meta_key::protocol_version);
}

request_envelope read_envelope(const json::object& params) {
  const auto* meta = meta_of(params);
  if (!meta) refuse("missing", json::array{"_meta"});
  json::array missing;
  json::array invalid;
  request_envelope envelope;
  if (const auto* version = meta->if_contains(meta_key::protocol_version); !version)
    missing.emplace_back(meta_key::protocol_version);
  else if (!version->is_string() || version->get_string().empty())
    invalid.emplace_back(meta_key::protocol_version);
  else
    envelope.protocol_version = version->get_string();
  if (const auto* capabilities = meta->if_contains(meta_key::client_capabilities); !capabilities)
    missing.emplace_back(meta_key::client_capabilities);
  else if (!capabilities->is_object())
    invalid.emplace_back(meta_key::client_capabilities);
  else
    envelope.client_capabilities = capabilities->get_object();
  if (const auto* level = meta->if_contains(meta_key::log_level)) {
    const auto parsed = level->is_string() ? parse_logging_level(level->get_string()) : std::nullopt;
    if (parsed) envelope.log_level = parsed;
    else invalid.emplace_back(meta_key::log_level);
  }
  if (!missing.empty()) refuse("missing", std::move(missing));
  if (!invalid.empty()) refuse("invalid", std::move(invalid));
  if (const auto* info = meta->if_contains(meta_key::client_info))
    envelope.client_info = parse_implementation(*info, "/params/_meta/io.modelcontextprotocol~1clientInfo");
  envelope.trace = read_trace(*meta);
  return envelope;
}

protocol_version envelope_version(const request_envelope& envelope,
                                  std::span<const protocol_version> supported) {
  const auto requested = parse_protocol_version(envelope.protocol_version);
  if (requested && is_modern(*requested) && std::ranges::find(supported, *requested) != supported.end())
    return *requested;
  throw protocol_error(errc::unsupported_protocol_version,
                       "Unsupported protocol version: " + envelope.protocol_version,
                       to_json_value(unsupported_version_data{detail::modern_version_names(supported),
                                                              envelope.protocol_version}));
}

}  // namespace mcp
