#include "shaping.hpp"

#include <boost/json/serialize.hpp>

namespace mcp::detail {

namespace {

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

}  // namespace

json::object shape_listing(json::object entry, const dialect& d) {
  if (!d.titles) entry.erase("title");
  if (!d.structured_content) {
    entry.erase("outputSchema");
    entry.erase("_meta");
  }
  if (!d.icons) {
    entry.erase("icons");
    entry.erase("execution");
  }
  if (auto* arguments = entry.if_contains("arguments"); arguments && arguments->is_array() && !d.titles)
    for (auto& argument : arguments->get_array())
      if (argument.is_object()) argument.get_object().erase("title");
  return entry;
}

json::object shape_tool(json::object tool, const dialect& d) {
  if (!d.tool_annotations) tool.erase("annotations");
  return shape_listing(std::move(tool), d);
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
  if (!d.structured_content) block.erase("_meta");
  return block;
}

json::object shape_call_tool_result(json::object result, const dialect& d) {
  // From 2025-06-18 every kind of block goes out as it is: nothing to walk.
  const bool blocks_as_they_are = d.structured_content && d.audio_content;
  if (auto* content = result.if_contains("content"); content && content->is_array() && !blocks_as_they_are)
    for (auto& block : content->get_array())
      if (block.is_object()) block = shape_content(std::move(block.get_object()), d);
  if (!d.structured_content) result.erase("structuredContent");
  return result;
}

}  // namespace mcp::detail
