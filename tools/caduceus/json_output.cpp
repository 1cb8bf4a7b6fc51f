#include "json_output.hpp"

#include <mcp/protocol/wire.hpp>

#include <boost/json/serialize.hpp>

#include <charconv>
#include <utility>
#include <cmath>
#include <iostream>

namespace caduceus {

namespace {

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
  for (const auto& t : tools) list.push_back(t.to_json());
  return {{"tools", std::move(list)}};
}

json::object resources_json(const std::vector<mcp::resource_info>& resources,
                            const std::vector<mcp::resource_template_info>& templates) {
  json::array r;
  for (const auto& item : resources) r.push_back(item.to_json());
  json::array t;
  for (const auto& item : templates) t.push_back(item.to_json());
  return {{"resources", std::move(r)}, {"resourceTemplates", std::move(t)}};
}

json::object contents_json(const std::vector<mcp::resource_contents>& contents) {
  json::array list;
  for (const auto& c : contents) list.push_back(c.to_json());
  return {{"contents", std::move(list)}};
}

json::object prompts_json(const std::vector<mcp::prompt_info>& prompts) {
  json::array list;
  for (const auto& p : prompts) list.push_back(p.to_json());
  return {{"prompts", std::move(list)}};
}

json::object prompt_json(const mcp::get_prompt_result& prompt) {
  return mcp::to_json_value(prompt).as_object();
}

json::object completion_json(const mcp::completion& completion) {
  return {{"completion", mcp::to_json_value(completion)}};
}

void print_json(const json::value& value) { std::cout << json_text(value) << std::endl; }

}  // namespace caduceus
