#pragma once
// The things MCP talks about (tools, resources, templates, prompts, tool
// results, resource contents) as plain structs, the same on both sides: a
// server declares and returns them, a client receives them.

#include <mcp/export.hpp>

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

/// Message severities of `logging/setLevel` and `notifications/message` (RFC 5424),
/// least severe first, so `<` compares severity. Each is named on the wire as here.
enum class logging_level { debug, info, notice, warning, error, critical, alert, emergency };
/// The level's wire name, "warning"; empty for a value outside the enum.
MCP_API std::string_view to_string(logging_level level) noexcept;
/// The level named `text` ("warning", lowercase as on the wire); nullopt otherwise.
MCP_API std::optional<logging_level> parse_logging_level(std::string_view text) noexcept;

/// A task's status (the spec's TaskStatus), in both eras of tasks and in a
/// task store's records.
enum class task_status {
  working,         ///< The request is being served.
  input_required,  ///< The request waits for input from the client (elicitation, sampling...).
  completed,       ///< The request returned its result.
  failed,          ///< The request failed (in 2025-11-25, a tool result with `isError` too).
  cancelled        ///< The request was cancelled before it finished.
};
/// The status as the wire writes it: "working", "input_required"...
MCP_API std::string_view to_string(task_status status) noexcept;
/// The three statuses a task never leaves.
inline bool is_terminal(task_status status) noexcept {
  return status == task_status::completed || status == task_status::failed || status == task_status::cancelled;
}

/// Hints about a tool's behaviour (2025-03-26 on). Absent means "not said".
/// They are hints: a client should not rely on them from an untrusted server.
struct MCP_API tool_annotations {
  /// A display name; tool_info::title, when set, comes first.
  std::optional<std::string> title = {};
  /// The tool does not modify its environment (unset: read as false).
  std::optional<bool> read_only_hint = {};
  /// It may update its environment destructively, not only additively
  /// (unset: read as true); meaningful only when it is not read-only.
  std::optional<bool> destructive_hint = {};
  /// Calling it again with the same arguments has no further effect (unset:
  /// read as false); meaningful only when it is not read-only.
  std::optional<bool> idempotent_hint = {};
  /// It may reach an open world of external entities, as web search does; a
  /// memory tool's world is closed (unset: read as true).
  std::optional<bool> open_world_hint = {};

  /// The ToolAnnotations object: the hints that are set, under their wire
  /// names (`readOnlyHint`, ...).
  json::object to_json() const;
};

/// How long a client may keep a result and who may share it: the
/// `ttlMs` and `cacheScope` of 2026-07-28 results (server/utilities/caching).
/// The default says "stale at once, for this caller only".
struct MCP_API cache_hint {
  /// How long the result stays fresh (`ttlMs`); 0: stale at once. A
  /// negative one is sent as 0.
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

/// A tool a server offers: its Tool object in `tools/list`, and what the
/// server needs besides to serve it.
struct MCP_API tool_info {
  std::string name;  ///< 1-128 characters of A-Z a-z 0-9 _ - .
  /// What it does, for the model: a hint (sent even when empty).
  std::string description = {};
  /// Display name (sent from 2025-06-18 on); unset: annotations.title, then name.
  std::optional<std::string> title = {};
  /// JSON Schema of its `arguments`, of type object; the server checks each
  /// call's arguments against it (a mismatch is a tool error, `isError`).
  json::object input_schema = {{"type", "object"}};
  std::optional<json::object> output_schema = {};  ///< results are checked against it
  tool_annotations annotations = {};  ///< left out when none is set; sent from 2025-03-26 on
  json::array icons = {};             ///< Icon objects; left out when empty; sent from 2025-11-25 on
  json::object meta = {};             ///< `_meta`; left out when empty; sent from 2025-06-18 on
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

/// A resource a server offers: its Resource object in `resources/list`, and
/// what the server needs besides to serve it.
struct MCP_API resource_info {
  std::string uri;  ///< any scheme; how to read it is the server's business
  /// Programmatic name, the display name too when `title` is absent. A client
  /// reads a missing or empty one as the URI.
  std::string name;
  std::optional<std::string> title = {};        ///< display name (sent from 2025-06-18 on)
  std::optional<std::string> description = {};  ///< what it holds, a hint for the model
  std::optional<std::string> mime_type = {};    ///< its MIME type, if known
  std::optional<std::int64_t> size = {};        ///< bytes of raw content (before base64), if known
  json::object annotations = {};  ///< Annotations (audience, priority, lastModified); left out when empty
  json::array icons = {};         ///< Icon objects; left out when empty; sent from 2025-11-25 on
  json::object meta = {};         ///< `_meta`; left out when empty; sent from 2025-06-18 on
  /// For resources/read of it and the list pages that list it; unset: the server's default.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};

  /// The Resource object of `resources/list`, in the newest revision's form.
  json::object to_json() const;
};

/// A resource template a server offers: its ResourceTemplate object in
/// `resources/templates/list`, and what the server needs besides to serve it.
struct MCP_API resource_template_info {
  std::string uri_template;  ///< RFC 6570, levels 1 to 3
  /// Programmatic name, the display name too when `title` is absent. A client
  /// reads a missing or empty one as the template.
  std::string name;
  std::optional<std::string> title = {};        ///< display name (sent from 2025-06-18 on)
  std::optional<std::string> description = {};  ///< what it is for, a hint for the model
  /// The MIME type of every resource it matches; only when they all have the same.
  std::optional<std::string> mime_type = {};
  json::object annotations = {};  ///< Annotations (audience, priority, lastModified); left out when empty
  json::array icons = {};         ///< Icon objects; left out when empty; sent from 2025-11-25 on
  json::object meta = {};         ///< `_meta`; left out when empty; sent from 2025-06-18 on
  /// For resources/read of what it matches and the list pages that list it.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};

  /// The ResourceTemplate object of `resources/templates/list`, in the newest
  /// revision's form.
  json::object to_json() const;
};

/// An argument a prompt takes (a PromptArgument of `prompts/list`).
struct MCP_API prompt_argument {
  std::string name;                             ///< its key in the `arguments` of `prompts/get`
  std::optional<std::string> description = {};  ///< what to give, for a person
  bool required = false;                        ///< must be given; sent only when true
  std::optional<std::string> title = {};        ///< display name (sent from 2025-06-18 on)
};

/// A prompt or prompt template a server offers: its Prompt object in
/// `prompts/list`, and what the server needs besides to serve it.
struct MCP_API prompt_info {
  std::string name;                             ///< unique within the server: what `prompts/get` names
  std::optional<std::string> description = {};  ///< what the prompt provides
  std::vector<prompt_argument> arguments = {};  ///< what it is templated with; left out when empty
  std::optional<std::string> title = {};        ///< display name (sent from 2025-06-18 on)
  json::array icons = {};   ///< Icon objects; left out when empty; sent from 2025-11-25 on
  json::object meta = {};   ///< `_meta`; left out when empty; sent from 2025-06-18 on
  /// For the prompts/list pages that list it; unset: the server's default.
  std::optional<cache_hint> cache = {};
  /// OAuth scopes a request for it needs besides the server's own (see
  /// http_auth_options): without them a protected server answers 403 with a
  /// scope challenge (a JSON-RPC error, code auth::insufficient_scope_code,
  /// where HTTP cannot). Not sent to clients; unchecked without OAuth.
  std::vector<std::string> required_scopes = {};

  /// The Prompt object of `prompts/list`, in the newest revision's form.
  json::object to_json() const;
};

/// One message of a prompt (a PromptMessage of `prompts/get`).
struct MCP_API prompt_message {
  std::string role;  ///< "user" or "assistant"
  json::object content;  ///< a content block (mcp::content::...)
};

/// The result of `prompts/get`.
struct MCP_API get_prompt_result {
  std::vector<prompt_message> messages;         ///< the prompt, in order
  std::optional<std::string> description = {};  ///< a description of the prompt
};

/// One item of a `resources/read` result.
struct MCP_API resource_contents {
  std::string uri;                            ///< the resource these are the contents of
  std::optional<std::string> mime_type = {};  ///< its MIME type, if known
  std::optional<std::string> text = {};  ///< set this, or
  std::optional<std::string> blob = {};  ///< this (base64)
  json::object meta = {};                ///< `_meta`; left out when empty

  /// Text contents: `text` as it is.
  static resource_contents from_text(std::string uri, std::string text,
                                     std::optional<std::string> mime_type = std::nullopt);
  /// `bytes` are raw; they are base64-encoded here.
  static resource_contents from_bytes(std::string uri, std::string_view bytes,
                                      std::optional<std::string> mime_type = std::nullopt);
  /// The TextResourceContents or BlobResourceContents object: `blob` when it
  /// is set, else `text` ("" when neither is).
  json::object to_json() const;
};

/// The result of `tools/call` as a handler produces it.
struct MCP_API call_tool_result {
  json::array content = {};  ///< content blocks (mcp::content::...): the unstructured result
  /// The structured result (2025-06-18 on): a JSON object, any JSON value
  /// from 2026-07-28; the server checks it against the tool's output_schema
  /// unless `is_error`. Older sessions rely on `content`, so a text block with
  /// the serialized value is added when `content` is empty.
  std::optional<json::value> structured_content = {};
  /// The tool failed: an error the model sees and may correct, unlike a
  /// protocol_error (sent only when true).
  bool is_error = false;
  json::object meta = {};  ///< `_meta`; left out when empty

  /// A result with one text block.
  static call_tool_result text(std::string_view text);
  /// A tool execution error: `isError: true` with one text block.
  static call_tool_result error(std::string message);

  /// The CallToolResult object, in the newest revision's form (with the text
  /// block `structured_content` may add).
  json::object to_json() const&;
  /// The same, moving the content instead of copying it.
  json::object to_json() &&;
  /// The text of its text blocks, one per line (what a terminal would show).
  std::string text_content() const;
};

/// A `notifications/message`: what a server logs to its client.
struct MCP_API log_message {
  logging_level level = logging_level::info;  ///< the message's severity
  std::string logger = {};  ///< empty when the server names none
  json::value data = {};    ///< what is logged: any JSON, a string or an object say
};

/// A root the client offers the server (`roots/list`).
struct MCP_API root {
  std::string uri;  ///< a file:// URI
  std::optional<std::string> name = {};  ///< a human-readable name, for display
};

/// The answer of `completion/complete`.
struct MCP_API completion {
  std::vector<std::string> values;  ///< at most 100
  std::optional<std::int64_t> total = {};  ///< how many there are in all, when known
  bool has_more = false;  ///< more values exist than were sent, even when `total` is unknown
};

}  // namespace mcp
