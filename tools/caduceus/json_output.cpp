#include "json_output.hpp"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <utility>
#include <cmath>
#include <iostream>

namespace caduceus {

namespace {

template <class T>
void put(json::object& o, std::string_view key, const std::optional<T>& value) {
  if (value) o[key] = *value;
}

void put(json::object& o, std::string_view key, const json::object& value) {
  if (!value.empty()) o[key] = value;
}

void put(json::object& o, std::string_view key, const json::array& value) {
  if (!value.empty()) o[key] = value;
}

json::object annotations_json(const mcp::tool_annotations& a) {
  json::object o;
  put(o, "title", a.title);
  put(o, "readOnlyHint", a.read_only_hint);
  put(o, "destructiveHint", a.destructive_hint);
  put(o, "idempotentHint", a.idempotent_hint);
  put(o, "openWorldHint", a.open_world_hint);
  return o;
}

json::object tool_json(const mcp::tool_info& t) {
  json::object o{{"name", t.name}};
  put(o, "title", t.title);
  o["description"] = t.description;
  o["inputSchema"] = t.input_schema;
  put(o, "outputSchema", t.output_schema);
  put(o, "annotations", annotations_json(t.annotations));
  put(o, "icons", t.icons);
  put(o, "_meta", t.meta);
  return o;
}

json::object resource_json(const mcp::resource_info& r) {
  json::object o{{"uri", r.uri}, {"name", r.name}};
  put(o, "title", r.title);
  put(o, "description", r.description);
  put(o, "mimeType", r.mime_type);
  put(o, "size", r.size);
  put(o, "annotations", r.annotations);
  put(o, "icons", r.icons);
  put(o, "_meta", r.meta);
  return o;
}

json::object template_json(const mcp::resource_template_info& t) {
  json::object o{{"uriTemplate", t.uri_template}, {"name", t.name}};
  put(o, "title", t.title);
  put(o, "description", t.description);
  put(o, "mimeType", t.mime_type);
  put(o, "annotations", t.annotations);
  put(o, "icons", t.icons);
  put(o, "_meta", t.meta);
  return o;
}

json::object prompt_info_json(const mcp::prompt_info& p) {
  json::object o{{"name", p.name}};
  put(o, "title", p.title);
  put(o, "description", p.description);
  json::array arguments;
  for (const auto& a : p.arguments) {
    json::object arg{{"name", a.name}};
    put(arg, "title", a.title);
    put(arg, "description", a.description);
    arg["required"] = a.required;
    arguments.push_back(std::move(arg));
  }
  o["arguments"] = std::move(arguments);
  put(o, "icons", p.icons);
  put(o, "_meta", p.meta);
  return o;
}

void append_json(std::string& out, const json::value& value) {
  switch (value.kind()) {
    case json::kind::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, member] : value.get_object()) {
        if (!std::exchange(first, false)) out += ',';
        out += json::serialize(json::string(key));
        out += ':';
        append_json(out, member);
      }
      out += '}';
      return;
    }
    case json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value.get_array()) {
        if (!std::exchange(first, false)) out += ',';
        append_json(out, item);
      }
      out += ']';
      return;
    }
    case json::kind::double_: {
      const double d = value.get_double();
      if (!std::isfinite(d)) break;  // (not from parsed JSON) as Boost.JSON writes it
      char buffer[32];
      const auto end = std::to_chars(buffer, buffer + sizeof buffer, d).ptr;
      out.append(buffer, end);
      return;
    }
    default:
      break;
  }
  out += json::serialize(value);
}

}  // namespace

std::string json_text(const json::value& value) {
  std::string out;
  append_json(out, value);
  return out;
}

json::object info_json(const mcp::initialize_result& info) { return mcp::to_json(info); }

json::object tools_json(const std::vector<mcp::tool_info>& tools) {
  json::array list;
  for (const auto& t : tools) list.push_back(tool_json(t));
  return {{"tools", std::move(list)}};
}

json::object resources_json(const std::vector<mcp::resource_info>& resources,
                            const std::vector<mcp::resource_template_info>& templates) {
  json::array r;
  for (const auto& item : resources) r.push_back(resource_json(item));
  json::array t;
  for (const auto& item : templates) t.push_back(template_json(item));
  return {{"resources", std::move(r)}, {"resourceTemplates", std::move(t)}};
}

json::object contents_json(const std::vector<mcp::resource_contents>& contents) {
  json::array list;
  for (const auto& c : contents) list.push_back(c.to_json());
  return {{"contents", std::move(list)}};
}

json::object prompts_json(const std::vector<mcp::prompt_info>& prompts) {
  json::array list;
  for (const auto& p : prompts) list.push_back(prompt_info_json(p));
  return {{"prompts", std::move(list)}};
}

json::object prompt_json(const mcp::get_prompt_result& prompt) {
  json::object o;
  put(o, "description", prompt.description);
  json::array messages;
  for (const auto& m : prompt.messages) messages.push_back(json::object{{"role", m.role}, {"content", m.content}});
  o["messages"] = std::move(messages);
  return o;
}

json::object completion_json(const mcp::completion& completion) {
  json::array values;
  for (const auto& v : completion.values) values.push_back(json::string(v));
  json::object body{{"values", std::move(values)}};
  put(body, "total", completion.total);
  body["hasMore"] = completion.has_more;
  return {{"completion", std::move(body)}};
}

void print_json(const json::value& value) { std::cout << json_text(value) << std::endl; }

}  // namespace caduceus
