#pragma once
// Content blocks (tool results, prompt messages) and resource contents, as
// the newest revision writes them. The server adapts them to the revision a
// session negotiated, so a handler is written once.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp {

namespace json = boost::json;

namespace content {

json::object text(std::string text);
/// `data` is base64 (see base64_encode).
json::object image(std::string data, std::string mime_type);
/// Audio exists from 2025-03-26 on; older sessions get a text block naming it.
json::object audio(std::string data, std::string mime_type);
/// A link to a resource (2025-06-18 on; older sessions get a text block with the URI).
json::object resource_link(std::string uri, std::string name,
                           std::optional<std::string> mime_type = std::nullopt,
                           std::optional<std::string> description = std::nullopt);
/// A resource embedded in the message, with text contents.
json::object embedded_text(std::string uri, std::string text,
                           std::optional<std::string> mime_type = std::nullopt);
/// A resource embedded in the message, with binary contents (base64).
json::object embedded_blob(std::string uri, std::string blob,
                           std::optional<std::string> mime_type = std::nullopt);

}  // namespace content

/// One item of a `resources/read` result.
struct resource_contents {
  std::string uri;
  std::optional<std::string> mime_type = {};
  std::optional<std::string> text = {};  ///< set this, or
  std::optional<std::string> blob = {};  ///< this (base64)
  json::object meta = {};

  static resource_contents from_text(std::string uri, std::string text,
                                     std::optional<std::string> mime_type = std::nullopt);
  /// `bytes` are raw; they are base64-encoded here.
  static resource_contents from_bytes(std::string uri, std::string_view bytes,
                                      std::optional<std::string> mime_type = std::nullopt);
  json::object to_json() const;
};

/// The result of `tools/call` as a handler produces it.
struct call_tool_result {
  json::array content = {};
  /// A JSON object (2025-06-18 on). Older sessions rely on `content`, so a
  /// text block with the serialized value is added when `content` is empty.
  std::optional<json::value> structured_content = {};
  bool is_error = false;
  json::object meta = {};

  /// A result with one text block.
  static call_tool_result text(std::string text);
  /// A tool execution error: `isError: true` with one text block.
  static call_tool_result error(std::string message);

  json::object to_json() const;
};

}  // namespace mcp
