#include "text_output.hpp"

#include "json_output.hpp"
#include "table.hpp"

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <string_view>
#include <utility>

namespace caduceus {

namespace {

namespace json = boost::json;

std::string string_at(const json::object& o, std::string_view key) {
  const auto* v = o.if_contains(key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

// Bytes that `base64` text decodes to.
std::size_t decoded_size(std::string_view base64) {
  std::size_t n = base64.size();
  while (n > 0 && (base64[n - 1] == '=' || base64[n - 1] == '\n' || base64[n - 1] == '\r')) --n;
  return n * 3 / 4;
}

std::string bytes(std::size_t n) { return std::to_string(n) + (n == 1 ? " byte" : " bytes"); }

// "[kind mime, N bytes]" with the parts that are known.
std::string note(std::string kind, const std::string& detail, const std::string& mime, std::size_t size) {
  std::string out = "[" + std::move(kind);
  if (!detail.empty()) out += " " + detail;
  if (!mime.empty()) out += " " + mime;
  return out + ", " + bytes(size) + "]";
}

// "a, b, c?" from an input schema: optional arguments end in '?'.
std::string argument_names(const json::object& schema) {
  const auto* properties = schema.if_contains("properties");
  if (!properties || !properties->is_object()) return "";
  std::vector<std::string> required;
  if (const auto* r = schema.if_contains("required"); r && r->is_array())
    for (const auto& name : r->get_array())
      if (name.is_string()) required.emplace_back(name.get_string());
  std::string out;
  for (const auto& [name, _] : properties->get_object()) {
    if (!out.empty()) out += ", ";
    out += name;
    if (std::find(required.begin(), required.end(), std::string(name)) == required.end()) out += '?';
  }
  return out;
}

std::string with_newline(std::string text) {
  if (!text.empty() && text.back() != '\n') text += '\n';
  return text;
}

std::string capability_summary(const json::object& capabilities) {
  std::string out;
  for (const auto& [name, value] : capabilities) {
    if (!out.empty()) out += ", ";
    out += name;
    if (!value.is_object()) continue;
    std::string flags;
    for (const auto& [flag, on] : value.get_object()) {
      if (on.is_bool() && !on.get_bool()) continue;
      if (!flags.empty()) flags += ", ";
      flags += flag;
    }
    if (!flags.empty()) out += " (" + flags + ")";
  }
  return out.empty() ? "none" : out;
}

}  // namespace

std::string content_text(const json::object& block) {
  const auto type = string_at(block, "type");
  if (type == "text") return string_at(block, "text");
  if (type == "image" || type == "audio")
    return note(type, "", string_at(block, "mimeType"), decoded_size(string_at(block, "data")));
  if (type == "resource_link") {
    std::string out = "[resource link " + string_at(block, "uri");
    if (const auto mime = string_at(block, "mimeType"); !mime.empty()) out += " " + mime;
    return out + "]";
  }
  if (type == "resource") {
    const auto* r = block.if_contains("resource");
    if (!r || !r->is_object()) return "[resource]";
    const auto& resource = r->get_object();
    const auto size = resource.contains("blob") ? decoded_size(string_at(resource, "blob"))
                                                : string_at(resource, "text").size();
    return note("resource", string_at(resource, "uri"), string_at(resource, "mimeType"), size);
  }
  return "[" + (type.empty() ? std::string("unknown") : type) + " block]";
}

std::string info_text(const mcp::initialize_result& info) {
  const auto& server = info.server_info;
  std::string name = server.name + " " + server.version;
  if (server.title && *server.title != server.name) name += " (" + *server.title + ")";
  table t;
  t.add({"server", name});
  t.add({"protocol", std::string(mcp::to_string(info.version))});
  t.add({"capabilities", capability_summary(info.capabilities)});
  if (info.instructions && !info.instructions->empty()) {
    // Each line of the instructions in the value column.
    std::string_view rest = *info.instructions;
    std::string label = "instructions";
    while (!rest.empty()) {
      const auto end = rest.find('\n');
      t.add({std::exchange(label, ""), std::string(rest.substr(0, end))});
      rest = end == std::string_view::npos ? std::string_view() : rest.substr(end + 1);
    }
  }
  return t.render();
}

std::string tools_text(const std::vector<mcp::tool_info>& tools) {
  if (tools.empty()) return "(no tools)\n";
  table t;
  for (const auto& tool : tools)
    t.add({tool.name, "(" + argument_names(tool.input_schema) + ")", first_line(tool.description)});
  return t.render();
}

std::string tool_result_text(const mcp::call_tool_result& result) {
  std::string out;
  for (const auto& block : result.content) {
    if (!block.is_object()) continue;
    out += with_newline(content_text(block.get_object()));
  }
  if (result.structured_content)
    out += "structured content: " + json_text(*result.structured_content) + "\n";
  return out;
}

std::string resources_text(const std::vector<mcp::resource_info>& resources,
                           const std::vector<mcp::resource_template_info>& templates) {
  std::string out;
  table r("  ");
  for (const auto& item : resources)
    r.add({item.uri, item.name, item.mime_type.value_or(""), first_line(item.description.value_or(""))});
  out += "resources" + std::string(resources.empty() ? " (none)\n" : "\n") + r.render();
  table t("  ");
  for (const auto& item : templates)
    t.add({item.uri_template, item.name, item.mime_type.value_or(""), first_line(item.description.value_or(""))});
  out += "templates" + std::string(templates.empty() ? " (none)\n" : "\n") + t.render();
  return out;
}

std::string contents_text(const std::vector<mcp::resource_contents>& contents) {
  std::string out;
  for (const auto& item : contents) {
    if (contents.size() > 1)
      out += "== " + item.uri + (item.mime_type ? " (" + *item.mime_type + ")" : std::string()) + "\n";
    if (item.blob)
      out += note("blob", item.uri, item.mime_type.value_or(""), decoded_size(*item.blob)) + "\n";
    else
      out += with_newline(item.text.value_or(""));
  }
  return out;
}

std::string prompts_text(const std::vector<mcp::prompt_info>& prompts) {
  if (prompts.empty()) return "(no prompts)\n";
  table t;
  for (const auto& prompt : prompts) {
    std::string arguments;
    for (const auto& a : prompt.arguments) {
      if (!arguments.empty()) arguments += ", ";
      arguments += a.name + (a.required ? "" : "?");
    }
    t.add({prompt.name, "(" + arguments + ")", first_line(prompt.description.value_or(""))});
  }
  return t.render();
}

std::string prompt_text(const mcp::get_prompt_result& prompt) {
  std::string out;
  if (prompt.description && !prompt.description->empty()) out += with_newline(*prompt.description);
  for (const auto& message : prompt.messages) out += with_newline(message.role + ": " + content_text(message.content));
  return out;
}

std::string completion_text(const mcp::completion& completion) {
  std::string out;
  for (const auto& value : completion.values) out += value + "\n";
  if (completion.total && *completion.total > static_cast<std::int64_t>(completion.values.size()))
    out += "(" + std::to_string(completion.values.size()) + " of " + std::to_string(*completion.total) + ")\n";
  else if (completion.has_more)
    out += "(more)\n";
  if (completion.values.empty() && out.empty()) out = "(no completions)\n";
  return out;
}

std::string log_text(const mcp::log_message& message) {
  std::string out = "[" + std::string(mcp::to_string(message.level)) + "]";
  if (!message.logger.empty()) out += " " + message.logger + ":";
  out += " ";
  out += message.data.is_string() ? std::string(message.data.get_string()) : json_text(message.data);
  for (auto& c : out)
    if (c == '\n' || c == '\r') c = ' ';
  return out;
}

}  // namespace caduceus
