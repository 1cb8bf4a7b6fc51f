// The listing form of the protocol types: what `tools/list`,
// `resources/list`, `resources/templates/list` and `prompts/list` carry, with
// absent optional members left out.

#include <mcp/protocol/types.hpp>

namespace mcp {

namespace {

void put_optional(json::object& out, std::string_view key, const std::optional<std::string>& value) {
  if (value) out[key] = *value;
}

void put_nonempty(json::object& out, std::string_view key, const json::object& value) {
  if (!value.empty()) out[key] = value;
}

void put_nonempty(json::object& out, std::string_view key, const json::array& value) {
  if (!value.empty()) out[key] = value;
}

}  // namespace

json::object tool_annotations::to_json() const {
  json::object out;
  put_optional(out, "title", title);
  if (read_only_hint) out["readOnlyHint"] = *read_only_hint;
  if (destructive_hint) out["destructiveHint"] = *destructive_hint;
  if (idempotent_hint) out["idempotentHint"] = *idempotent_hint;
  if (open_world_hint) out["openWorldHint"] = *open_world_hint;
  return out;
}

json::object tool_info::to_json() const {
  json::object out{{"name", name}, {"description", description}, {"inputSchema", input_schema}};
  put_optional(out, "title", title);
  if (output_schema) out["outputSchema"] = *output_schema;
  put_nonempty(out, "annotations", annotations.to_json());
  put_nonempty(out, "icons", icons);
  put_nonempty(out, "_meta", meta);
  return out;
}

json::object resource_info::to_json() const {
  json::object out{{"uri", uri}, {"name", name}};
  put_optional(out, "title", title);
  put_optional(out, "description", description);
  put_optional(out, "mimeType", mime_type);
  if (size) out["size"] = *size;
  put_nonempty(out, "annotations", annotations);
  put_nonempty(out, "icons", icons);
  put_nonempty(out, "_meta", meta);
  return out;
}

json::object resource_template_info::to_json() const {
  json::object out{{"uriTemplate", uri_template}, {"name", name}};
  put_optional(out, "title", title);
  put_optional(out, "description", description);
  put_optional(out, "mimeType", mime_type);
  put_nonempty(out, "annotations", annotations);
  put_nonempty(out, "icons", icons);
  put_nonempty(out, "_meta", meta);
  return out;
}

json::object prompt_info::to_json() const {
  json::object out{{"name", name}};
  put_optional(out, "title", title);
  put_optional(out, "description", description);
  if (!arguments.empty()) {
    json::array listed;
    for (const auto& a : arguments) {
      json::object arg{{"name", a.name}};
      put_optional(arg, "title", a.title);
      put_optional(arg, "description", a.description);
      if (a.required) arg["required"] = true;
      listed.push_back(std::move(arg));
    }
    out["arguments"] = std::move(listed);
  }
  put_nonempty(out, "icons", icons);
  put_nonempty(out, "_meta", meta);
  return out;
}

}  // namespace mcp
