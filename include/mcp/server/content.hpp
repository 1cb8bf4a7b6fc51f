#pragma once
// Content blocks (tool results, prompt messages) and resource contents, as
// the newest revision writes them. The server adapts them to the revision a
// session negotiated, so a handler is written once.

#include <mcp/export.hpp>
#include <mcp/protocol/types.hpp>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp {

namespace json = boost::json;

namespace content {

/// A text block: `{"type": "text", "text": ...}`.
MCP_API json::object text(std::string_view text);
/// `data` is base64 (see base64_encode).
MCP_API json::object image(std::string data, std::string mime_type);
/// Audio exists from 2025-03-26 on; older sessions get a text block naming it.
MCP_API json::object audio(std::string data, std::string mime_type);
/// A link to a resource (2025-06-18 on; older sessions get a text block with the URI).
MCP_API json::object resource_link(std::string uri, std::string name,
                           std::optional<std::string> mime_type = std::nullopt,
                           std::optional<std::string> description = std::nullopt);
/// A resource embedded in the message, with text contents.
MCP_API json::object embedded_text(std::string uri, std::string text,
                           std::optional<std::string> mime_type = std::nullopt);
/// A resource embedded in the message, with binary contents (base64).
MCP_API json::object embedded_blob(std::string uri, std::string blob,
                           std::optional<std::string> mime_type = std::nullopt);

}  // namespace content

}  // namespace mcp
