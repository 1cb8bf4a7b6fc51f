#pragma once
// Diagnostics of the SDK itself: structured log records, each with a time, a
// level, a category, a message and key/value fields (session_id, method,
// error, ...). They go to stderr, never stdout: stdout is the stdio
// transport. docs/observability.md#logs describes them.
//
// Each category has its own level. CADUCEUS_LOG sets them at start
// ("warn", "info,transport=debug,access=off"), set_sdk_log_levels() at run
// time; CADUCEUS_LOG_FORMAT (or set_sdk_log_format) picks the line format:
// text, json (JSON lines) or logfmt.
//
//   sdk_log(log_category::session, log_level::info, "session expired", {{"session_id", id}});
//
// A line below its category's level costs a relaxed atomic load and a
// branch: the fields are views, and nothing is formatted.

#include <mcp/export.hpp>

#include <atomic>
#include <chrono>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcp {

/// The severity of a line, least to most severe; `off`, as a category's
/// level, writes nothing (the default level is `warn`, `info` for access).
enum class log_level { trace, debug, info, warn, error, off };

/// What a line is about. `access` is the access log (one line per HTTP
/// request, see enable_access_log): a bare level in a spec leaves it alone.
enum class log_category : unsigned char {
  server,     ///< the server's own parts: handlers, tools, tasks, skills, shutdown
  protocol,   ///< JSON-RPC and MCP rules: malformed or refused messages
  transport,  ///< stdio, HTTP, WebSocket, child processes: connections and streams
  session,    ///< sessions opened, resumed, expired, their saved state
  auth,       ///< OAuth: tokens verified or refused, keys, sign-in
  client,     ///< the client: its session, reconnection, callbacks
  cluster,    ///< Redis and the servers of a cluster
  access,     ///< the access log
  count_      ///< not a category: how many there are
};

/// "trace", "debug", "info", "warn", "error" or "off".
MCP_API std::string_view to_string(log_level level) noexcept;
/// The category's name as specs write it ("transport"); empty for count_.
MCP_API std::string_view to_string(log_category category) noexcept;
/// "trace", "debug", "info", "warn" (or "warning"), "error", "off".
MCP_API std::optional<log_level> log_level_named(std::string_view name) noexcept;
/// The category of that name (to_string's); nullopt for another.
MCP_API std::optional<log_category> log_category_named(std::string_view name) noexcept;

/// One key/value of a record. Text is a view: it must outlive the call.
struct MCP_API log_field {
  /// Which value the field holds: `text`, `integer` or `real`.
  enum class kind : unsigned char { text, integer, real };

  /// A text field, viewing `v`.
  log_field(std::string_view k, std::string_view v) noexcept : key(k), text(v) {}
  /// A text field, viewing the C string `v`.
  log_field(std::string_view k, const char* v) noexcept : key(k), text(v) {}
  /// A text field, viewing `v`'s characters.
  log_field(std::string_view k, const std::string& v) noexcept : key(k), text(v) {}
  /// An integer field (any integral type but bool and char).
  template <std::integral T>
    requires(!std::same_as<T, bool> && !std::same_as<T, char>)
  log_field(std::string_view k, T v) noexcept : key(k), integer(static_cast<std::int64_t>(v)), type(kind::integer) {}
  /// A real field.
  log_field(std::string_view k, double v) noexcept : key(k), real(v), type(kind::real) {}
  /// A truth value, as the text "true" or "false" (a bool only: a pointer
  /// does not become one).
  template <std::same_as<bool> B>
  log_field(std::string_view k, B v) noexcept : key(k), text(v ? "true" : "false") {}
  /// A char is refused: say whether it is text (`std::string_view(&c, 1)`)
  /// or a number (`int(c)`).
  log_field(std::string_view k, char v) = delete;

  std::string_view key;      ///< the field's name: session_id, method, error...
  std::string_view text;     ///< the value when `type` is text
  std::int64_t integer = 0;  ///< the value when `type` is integer
  double real = 0;           ///< the value when `type` is real
  kind type = kind::text;    ///< which of the three holds the value
};

/// One line, as a sink sees it. The views die with the call: copy what you keep.
struct MCP_API log_record {
  std::chrono::system_clock::time_point time;    ///< when it was logged
  log_level level = log_level::info;             ///< its severity
  log_category category = log_category::server;  ///< what it is about
  std::string_view message;                      ///< what happened, without the fields
  std::span<const log_field> fields;             ///< the key/values, in the order given

  /// The field `key`, or null.
  const log_field* field(std::string_view key) const noexcept;
};

/// How a record is written as a line (format_log_record, the stderr sink).
enum class log_format {
  text,   ///< for people: time, level, category, message, then key=value
  json,   ///< one JSON object per line
  logfmt  ///< key=value pairs, quoted where needed
};
/// "text", "json" or "logfmt"; nullopt for another name.
MCP_API std::optional<log_format> log_format_named(std::string_view name) noexcept;

/// The record as one line in `format`, without the newline.
MCP_API std::string format_log_record(const log_record& record, log_format format);

namespace detail {
// Per category: the least severe level written.
extern MCP_API std::atomic<log_level> log_thresholds[static_cast<std::size_t>(log_category::count_)];
MCP_API void write_log(log_category category, log_level level, std::string_view message,
               std::span<const log_field> fields);
}  // namespace detail

/// True when a line of `level` in `category` would be written: check it
/// before building an expensive message.
inline bool sdk_log_enabled(log_category category, log_level level) noexcept {
  return level != log_level::off &&
         level >= detail::log_thresholds[static_cast<std::size_t>(category)].load(std::memory_order_relaxed);
}

/// Writes one record when its level passes its category's.
inline void sdk_log(log_category category, log_level level, std::string_view message,
                    std::initializer_list<log_field> fields = {}) {
  if (sdk_log_enabled(category, level)) detail::write_log(category, level, message, {fields.begin(), fields.size()});
}

/// The least severe level `category` writes now.
MCP_API log_level sdk_log_level(log_category category) noexcept;
/// Sets the least severe level `category` writes; `off` silences it.
/// Any thread, at any time.
MCP_API void set_sdk_log_level(log_category category, log_level level) noexcept;
/// Sets every category but `access`.
MCP_API void set_sdk_log_level(log_level level) noexcept;
/// Applies a spec: comma-separated items, each a level (every category but
/// access) or category=level, e.g. "info,transport=debug,access=off".
/// Throws mcp::invalid_argument, changing nothing, when one does not read.
MCP_API void set_sdk_log_levels(std::string_view spec);

/// The format of the lines written to stderr.
MCP_API log_format sdk_log_format() noexcept;
/// Sets the format of the lines written to stderr (not what a sink gets:
/// records). Overrides CADUCEUS_LOG_FORMAT.
MCP_API void set_sdk_log_format(log_format format) noexcept;

/// Where records go instead of stderr. Called under a lock, one at a time;
/// it must not log.
using log_sink = std::function<void(const log_record&)>;
/// Sends every record written to `sink` instead of stderr; null: stderr again.
MCP_API void set_sdk_log_sink(log_sink sink);
/// A sink of the earlier kind: the level, and the message followed by its
/// fields as logfmt.
MCP_API void set_sdk_log_sink(std::function<void(log_level, std::string_view)> sink);
/// Back to stderr.
MCP_API void set_sdk_log_sink(std::nullptr_t) noexcept;

}  // namespace mcp
