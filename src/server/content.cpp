#include <mcp/server/content.hpp>

#include <mcp/base64.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/json/serialize.hpp>

namespace mcp {

namespace content {

json::object text(std::string_view text) {
  // (Built by hand: the most common block, and an initializer list costs a
  // temporary value per entry.)
  json::object block;
  block.reserve(2);
  block.emplace("type", "text");
  block.emplace("text", text);
  return block;
}

json::object image(std::string data, std::string mime_type) {
  return {{"type", "image"}, {"data", std::move(data)}, {"mimeType", std::move(mime_type)}};
}

json::object audio(std::string data, std::string mime_type) {
  return {{"type", "audio"}, {"data", std::move(data)}, {"mimeType", std::move(mime_type)}};
}

json::object resource_link(std::string uri, std::string name, std::optional<std::string> mime_type,
                           std::optional<std::string> description) {
  json::object link{{"type", "resource_link"}, {"uri", std::move(uri)}, {"name", std::move(name)}};
  if (mime_type) link["mimeType"] = std::move(*mime_type);
  if (description) link["description"] = std::move(*description);
  return link;
}

json::object embedded_text(std::string uri, std::string text, std::optional<std::string> mime_type) {
  return {{"type", "resource"},
          {"resource",
           resource_contents::from_text(std::move(uri), std::move(text), std::move(mime_type))
               .to_json()}};
}

json::object embedded_blob(std::string uri, std::string blob, std::optional<std::string> mime_type) {
  resource_contents contents{std::move(uri), std::move(mime_type), std::nullopt, std::move(blob)};
  return {{"type", "resource"}, {"resource", contents.to_json()}};
}

}  // namespace content

resource_contents resource_contents::from_text(std::string uri, std::string text,
                                               std::optional<std::string> mime_type) {
  return {std::move(uri), std::move(mime_type), std::move(text)};
}

resource_contents resource_contents::from_bytes(std::string uri, std::string_view bytes,
                                                std::optional<std::string> mime_type) {
  return {std::move(uri), std::move(mime_type), std::nullopt, base64_encode(bytes)};
}

json::object resource_contents::to_json() const {
  // One of `text` and `blob`: the blob when there is one, else the text ("" when none).
  resource_contents one{uri, mime_type, blob ? std::nullopt : std::optional(text.value_or("")), blob, meta};
  return to_json_value(std::move(one)).as_object();
}

call_tool_result call_tool_result::text(std::string_view text) {
  call_tool_result result;
  result.content.push_back(content::text(text));
  return result;
}

call_tool_result call_tool_result::error(std::string message) {
  return {json::array{content::text(std::move(message))}, std::nullopt, true};
}

std::string call_tool_result::text_content() const {
  std::string out;
  for (const auto& block : content) {
    const auto* o = block.if_object();
    if (!o || !o->contains("text") || !o->at("text").is_string() || o->at("type") != "text") continue;
    if (!out.empty()) out += '\n';
    out += o->at("text").get_string();
  }
  return out;
}

json::object call_tool_result::to_json() const& { return call_tool_result(*this).to_json(); }

json::object call_tool_result::to_json() && {
  // The spec asks for a serialized copy of structured content in a text
  // block, for clients that only read `content` (and for revisions without
  // structuredContent).
  if (content.empty() && structured_content)
    content.push_back(content::text(json::serialize(*structured_content)));
  return to_json_value(std::move(*this)).as_object();
}

}  // namespace mcp
