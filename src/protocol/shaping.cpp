#include "shaping.hpp"

#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/lifecycle.hpp>

#include <boost/json/serialize.hpp>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace mcp::detail {

namespace {

/// A key of the newest form, and the feature a revision needs to receive it.
struct key_rule {
  std::string_view key;
  bool dialect::*feature;
};

// clang-format off
constexpr key_rule listing_keys[] = {
    {"title", &dialect::titles},
    {"outputSchema", &dialect::structured_content}, {"_meta", &dialect::structured_content},
    {"icons", &dialect::icons}, {"execution", &dialect::tasks}};
constexpr key_rule tool_keys[] = {{"annotations", &dialect::tool_annotations}};
constexpr key_rule prompt_argument_keys[] = {{"title", &dialect::titles}};
constexpr key_rule implementation_keys[] = {
    {"title", &dialect::titles},
    {"description", &dialect::icons}, {"websiteUrl", &dialect::icons}, {"icons", &dialect::icons}};
constexpr key_rule capability_keys[] = {
    {"completions", &dialect::completions}, {"tasks", &dialect::tasks},
    {"extensions", &dialect::extensions}};
constexpr key_rule call_tool_result_keys[] = {{"structuredContent", &dialect::structured_content}};
constexpr key_rule content_block_keys[] = {{"_meta", &dialect::structured_content}};
// clang-format on

void drop_undefined(json::object& o, std::span<const key_rule> rules, const dialect& d) {
  for (const auto& rule : rules)
    if (!(d.*rule.feature)) o.erase(rule.key);
}

std::string describe_link(const json::object& link) {
  std::string text = "Resource: ";
  text += link.at("uri").as_string();
  if (const auto* name = link.if_contains("name"); name && name->is_string()) {
    text += " (";
    text += name->get_string();
    text += ")";
  }
  return text;
}

// Whole numbers go out as integers ("50", not Boost.JSON's "5E1" for a double).
json::value as_json_number(double value) {
  if (value == std::floor(value) && std::abs(value) < 9.0e15) return static_cast<std::int64_t>(value);
  return value;
}

}  // namespace

json::object shape_listing(json::object entry, const dialect& d) {
  drop_undefined(entry, listing_keys, d);
  if (auto* arguments = entry.if_contains("arguments"); arguments && arguments->is_array())
    for (auto& argument : arguments->get_array())
      if (argument.is_object()) drop_undefined(argument.get_object(), prompt_argument_keys, d);
  return entry;
}

json::object shape_tool(json::object tool, const dialect& d) {
  drop_undefined(tool, tool_keys, d);
  return shape_listing(std::move(tool), d);
}

json::object shape_implementation(json::object info, const dialect& d) {
  drop_undefined(info, implementation_keys, d);
  return info;
}

json::object shape_content(json::object block, const dialect& d) {
  const auto* type = block.if_contains("type");
  if (type && *type == "audio" && !d.audio_content) {
    std::string text = "[audio content (";
    text += block.at("mimeType").as_string();
    text += ") is not supported by protocol version ";
    text += d.name;
    text += "]";
    return {{"type", "text"}, {"text", std::move(text)}};
  }
  if (type && *type == "resource_link" && !d.structured_content)
    return {{"type", "text"}, {"text", describe_link(block)}};
  drop_undefined(block, content_block_keys, d);
  return block;
}

json::object shape_call_tool_result(json::object result, const dialect& d) {
  // From 2025-06-18 every kind of block goes out as it is: nothing to walk.
  const bool blocks_as_they_are = d.structured_content && d.audio_content;
  if (auto* content = result.if_contains("content"); content && content->is_array() && !blocks_as_they_are)
    for (auto& block : content->get_array())
      if (block.is_object()) block = shape_content(std::move(block.get_object()), d);
  drop_undefined(result, call_tool_result_keys, d);
  return result;
}

json::object shape_prompt_result(json::object result, const dialect& d) {
  if (auto* messages = result.if_contains("messages"); messages && messages->is_array())
    for (auto& message : messages->get_array())
      if (auto* content = message.is_object() ? message.get_object().if_contains("content") : nullptr;
          content && content->is_object())
        *content = shape_content(std::move(content->get_object()), d);
  return result;
}

json::object progress_params(const json::value& token, double progress, std::optional<double> total,
                             std::string_view message, const dialect& d) {
  json::object params{{"progressToken", token}, {"progress", as_json_number(progress)}};
  if (total) params["total"] = as_json_number(*total);
  if (!message.empty() && d.progress_message) params["message"] = message;
  return params;
}

void shape_input_params(json::object& params, const dialect& d) {
  if (!d.url_elicitation) params.erase("mode");
}

int resource_not_found_code(const dialect& d) noexcept {
  return d.era == protocol_era::modern ? errc::invalid_params : errc::resource_not_found;
}

bool carries_cache_hints(const dialect& d) noexcept { return d.era == protocol_era::modern; }

bool mirrors_arguments_in_headers(const dialect& d) noexcept { return d.era == protocol_era::modern; }

}  // namespace mcp::detail

namespace mcp {

json::object shape_capabilities(json::object capabilities, const dialect& d) {
  detail::drop_undefined(capabilities, detail::capability_keys, d);
  return capabilities;
}

}  // namespace mcp
