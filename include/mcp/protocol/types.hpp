#pragma once
// The things MCP talks about (tools, resources, templates, prompts, tool
// results, resource contents) as plain structs, the same on both sides: a
// server declares and returns them, a client receives them.

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <cstdint>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

namespace json = boost::json;

/// Message severities of `logging/setLevel` and `notifications/message` (RFC 5424).
enum class logging_level { debug, info, notice, warning, error, critical, alert, emergency };
std::string_view to_string(logging_level level) noexcept;
std::optional<logging_level> parse_logging_level(std::string_view text) noexcept;

/// Hints about a tool's behaviour (2025-03-26 on). Absent means "not said".
struct tool_annotations {
  std::optional<std::string> title = {};
  std::optional<bool> read_only_hint = {};
  std::optional<bool> destructive_hint = {};
  std::optional<bool> idempotent_hint = {};
  std::optional<bool> open_world_hint = {};

  json::object to_json() const;
};

/// How long a client may keep a result and who may share it: the
/// `ttlMs` and `cacheScope` of 2026-07-28 results (server/utilities/caching).
/// The default says "stale at once, for this caller only".
struct cache_hint {
  std::chrono::milliseconds ttl{0};
  /// `public`: the result holds nothing user-specific, any cache may share it.
  bool shared = false;
};

/// Whether a tool may run as a task (`execution.taskSupport`, the tasks of
/// 2025-11-25 and the tasks extension of 2026-07-28).
enum class task_support {
  forbidden,  ///< never a task (the default)
  optional,   ///< a task when the client can take one
  required,   ///< only as a task: refused to a client that cannot take one
};

struct tool_info {
  std::string name;  ///< 1-128 characters of A-Z a-z 0-9 _ - .
  std::string description = {};
  std::optional<std::string> title = {};
  json::object input_schema = {{"type", "object"}};
  std::optional<json::object> output_schema = {};  ///< results are checked against it
  tool_annotations annotations = {};
  json::array icons = {};
  json::object meta = {};
  /// For the tools/list pages that list it; unset: the server's default.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};
  /// Whether the server runs a call of it as a task (docs/tasks.md); sent
  /// as `execution.taskSupport` to 2025-11-25 clients.
  mcp::task_support task_support = mcp::task_support::forbidden;

  /// The Tool object of `tools/list`.
  json::object to_json() const;
};

struct resource_info {
  std::string uri;
  std::string name;
  std::optional<std::string> title = {};
  std::optional<std::string> description = {};
  std::optional<std::string> mime_type = {};
  std::optional<std::int64_t> size = {};
  json::object annotations = {};
  json::array icons = {};
  json::object meta = {};
  /// For resources/read of it and the list pages that list it; unset: the server's default.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};

  json::object to_json() const;
};

struct resource_template_info {
  std::string uri_template;  ///< RFC 6570, levels 1 to 3
  std::string name;
  std::optional<std::string> title = {};
  std::optional<std::string> description = {};
  std::optional<std::string> mime_type = {};
  json::object annotations = {};
  json::array icons = {};
  json::object meta = {};
  /// For resources/read of what it matches and the list pages that list it.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};

  json::object to_json() const;
};

struct prompt_argument {
  std::string name;
  std::optional<std::string> description = {};
  bool required = false;
  std::optional<std::string> title = {};
};

struct prompt_info {
  std::string name;
  std::optional<std::string> description = {};
  std::vector<prompt_argument> arguments = {};
  std::optional<std::string> title = {};
  json::array icons = {};
  json::object meta = {};
  /// For the prompts/list pages that list it; unset: the server's default.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};

  json::object to_json() const;
};

struct prompt_message {
  std::string role;  ///< "user" or "assistant"
  json::object content;  ///< a content block (mcp::content::...)
};

struct get_prompt_result {
  std::vector<prompt_message> messages;
  std::optional<std::string> description = {};
};

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
  static call_tool_result text(std::string_view text);
  /// A tool execution error: `isError: true` with one text block.
  static call_tool_result error(std::string message);

  json::object to_json() const&;
  /// The same, moving the content instead of copying it.
  json::object to_json() &&;
  /// The text of its text blocks, one per line (what a terminal would show).
  std::string text_content() const;
};

/// A `notifications/message`: what a server logs to its client.
struct log_message {
  logging_level level = logging_level::info;
  std::string logger = {};  ///< empty when the server names none
  json::value data = {};
};

/// A root the client offers the server (`roots/list`).
struct root {
  std::string uri;  ///< a file:// URI
  std::optional<std::string> name = {};
};

/// The answer of `completion/complete`.
struct completion {
  std::vector<std::string> values;  ///< at most 100
  std::optional<std::int64_t> total = {};  ///< how many there are in all, when known
  bool has_more = false;
};

}  // namespace mcp
