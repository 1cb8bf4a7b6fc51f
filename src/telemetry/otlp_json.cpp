// The OTLP/HTTP JSON encoding of spans (opentelemetry-proto's
// ExportTraceServiceRequest in its JSON mapping: ids as hex strings, 64-bit
// integers and times as decimal strings, enums as numbers), and where to
// send them (include/mcp/telemetry/otlp_exporter.hpp).

#include <mcp/telemetry/otlp_exporter.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cstdlib>

namespace mcp::telemetry {

namespace {

namespace json = boost::json;

json::object any_value(const attribute_value& value) {
  struct visitor {
    json::object operator()(const std::string& text) const { return {{"stringValue", text}}; }
    json::object operator()(std::int64_t number) const { return {{"intValue", std::to_string(number)}}; }
    json::object operator()(double number) const { return {{"doubleValue", number}}; }
    json::object operator()(bool flag) const { return {{"boolValue", flag}}; }
  };
  return std::visit(visitor{}, value);
}

json::object key_value(std::string_view key, const attribute_value& value) {
  return {{"key", key}, {"value", any_value(value)}};
}

json::object span_json(const span_record& span) {
  json::array attributes;
  attributes.reserve(span.attributes.size());
  for (const auto& attribute : span.attributes) attributes.push_back(key_value(attribute.key, attribute.value));
  json::object out{{"traceId", to_hex(span.context.trace_id)},
                   {"spanId", to_hex(span.context.span_id)},
                   {"name", span.name},
                   {"kind", static_cast<int>(span.kind)},
                   {"startTimeUnixNano", std::to_string(span.start_unix_nano)},
                   {"endTimeUnixNano", std::to_string(span.end_unix_nano)},
                   {"attributes", std::move(attributes)},
                   {"flags", static_cast<int>(span.context.flags)}};
  if (span.has_parent()) out["parentSpanId"] = to_hex(span.parent_span_id);
  if (!span.context.tracestate.empty()) out["traceState"] = span.context.tracestate;
  json::object status{{"code", static_cast<int>(span.status)}};
  if (!span.status_message.empty()) status["message"] = span.status_message;
  out["status"] = std::move(status);
  return out;
}

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

}  // namespace

std::string otlp_exporter_options::url() const {
  if (!traces_url.empty()) return traces_url;
  auto base = endpoint;
  while (!base.empty() && base.back() == '/') base.pop_back();
  return base + "/v1/traces";
}

otlp_exporter_options otlp_exporter_options::from_environment() {
  otlp_exporter_options options;
  if (auto url = environment("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"); !url.empty()) options.traces_url = std::move(url);
  if (auto base = environment("OTEL_EXPORTER_OTLP_ENDPOINT"); !base.empty()) options.endpoint = std::move(base);
  if (auto name = environment("OTEL_SERVICE_NAME"); !name.empty()) options.service_name = std::move(name);
  return options;
}

std::string otlp_json(std::span<const span_record> spans, std::string_view service_name) {
  json::array encoded;
  encoded.reserve(spans.size());
  for (const auto& span : spans) encoded.push_back(span_json(span));
  json::object resource{{"attributes", json::array{key_value("service.name", std::string(service_name))}}};
  json::object scope{{"name", "caduceus"}};
  json::object scope_spans{{"scope", std::move(scope)}, {"spans", std::move(encoded)}};
  json::object resource_spans{{"resource", std::move(resource)}, {"scopeSpans", json::array{std::move(scope_spans)}}};
  json::object request{{"resourceSpans", json::array{std::move(resource_spans)}}};
  return json::serialize(request);
}

}  // namespace mcp::telemetry
