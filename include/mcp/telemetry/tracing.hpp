#pragma once
// Distributed tracing: W3C trace context, spans, and where finished spans go.
//
// A tracer starts spans; a span that ends becomes a span_record and goes to
// the tracer's span_exporter: the OTLP/HTTP exporter (otlp_exporter.hpp),
// the in-memory one below, or your own (wrap opentelemetry-cpp's exporter,
// say). Which spans are recorded a sampler decides, parent-based: a span
// whose parent was sampled is, one whose parent was not is not, and a root
// span is with the tracer's ratio. A span that is not recorded still has
// ids, and passes its context (unsampled) on.
//
// The MCP links that make server and client spans after OpenTelemetry's
// conventions for MCP are in mcp_tracing.hpp.

#include <mcp/export.hpp>
#include <mcp/protocol/envelope.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mcp::telemetry {

/// A W3C trace id: 16 bytes, all zero when there is none.
using trace_id = std::array<std::uint8_t, 16>;
/// A W3C span (parent) id: 8 bytes, all zero when there is none.
using span_id = std::array<std::uint8_t, 8>;

// (Listed with span_context: as namespace members Doxygen takes the two
// overloads for one, the two ids being std::array to it.)
/// \relates span_context
/// The 32 lower-case hex digits of a trace id.
MCP_API std::string to_hex(const trace_id& id);
/// \relates span_context
/// The 16 lower-case hex digits of a span id.
MCP_API std::string to_hex(const span_id& id);

/// The identity of a span as it travels: W3C `traceparent` (ids and flags)
/// and `tracestate`.
struct MCP_API span_context {
  telemetry::trace_id trace_id{};  ///< The trace it belongs to.
  telemetry::span_id span_id{};    ///< The span itself (the parent id of its children).
  std::uint8_t flags = 0;          ///< The trace flags; bit 0: sampled.
  std::string tracestate;          ///< The W3C `tracestate` header's text, carried as is.

  /// Both ids non-zero.
  bool valid() const noexcept;
  /// Whether the span is recorded (bit 0 of the flags).
  bool sampled() const noexcept { return (flags & 1u) != 0; }
  /// `00-<trace id>-<span id>-<flags>`.
  std::string traceparent() const;
  /// The context as `_meta` and `call_options::trace` carry it, with `baggage`.
  trace_context to_trace(std::string baggage = {}) const;
};

/// Parses a W3C `traceparent` (any version; the fields of version 00 are
/// read); nullopt when it is not a valid one.
MCP_API std::optional<span_context> parse_traceparent(std::string_view traceparent, std::string_view tracestate = {});
/// The same from a trace_context (baggage aside).
MCP_API std::optional<span_context> parse_trace(const trace_context& trace);

/// A span's kind, with OTLP's numbers.
enum class span_kind : std::uint8_t {
  internal = 1,  ///< Work inside a process.
  server = 2,    ///< Serving a remote request (a server's span of an MCP request).
  client = 3,    ///< A request to a remote service (a client's span of an MCP request).
  producer = 4,  ///< Sending a message that is handled later.
  consumer = 5   ///< Handling a message a producer sent.
};
/// A span's status, with OTLP's numbers.
enum class status_code : std::uint8_t {
  unset = 0,  ///< Not set (the default): the operation is taken as fine.
  ok = 1,     ///< Set as succeeded.
  error = 2   ///< Failed; the status message may say why.
};

/// The value of a span attribute, as OTLP types it.
using attribute_value = std::variant<std::string, std::int64_t, double, bool>;

/// A key and value a span records (OpenTelemetry's names, e.g. `mcp.method.name`).
struct MCP_API span_attribute {
  std::string key;        ///< The attribute's name, unique in its span.
  attribute_value value;  ///< Its value.
};

/// A span that has ended, as exporters get it.
struct MCP_API span_record {
  std::string name;                         ///< What start_span() was given.
  span_kind kind = span_kind::internal;     ///< What start_span() was given.
  span_context context;                     ///< Its ids, flags and tracestate.
  /// Zero for a root span.
  telemetry::span_id parent_span_id{};
  std::uint64_t start_unix_nano = 0;        ///< When it started: nanoseconds since the Unix epoch (system clock).
  std::uint64_t end_unix_nano = 0;          ///< When it ended: nanoseconds since the Unix epoch (system clock).
  std::vector<span_attribute> attributes;   ///< In the order first set; one per key.
  status_code status = status_code::unset;  ///< As set_status() or set_error() left it.
  std::string status_message;               ///< The message of an error status; empty otherwise.

  /// Whether parent_span_id is set (not all zero).
  bool has_parent() const noexcept;
  /// The attribute `key`, or null.
  const attribute_value* attribute(std::string_view key) const noexcept;
  /// The text of attribute `key`; empty when absent or not text.
  std::string_view text(std::string_view key) const noexcept;
};

/// Where finished spans go.
class MCP_API span_exporter {
 public:
  virtual ~span_exporter() = default;
  /// A span that ended. Called on the thread that ended it, from many
  /// threads at once, while a request waits: queue it and return.
  virtual void export_span(span_record span) = 0;
};

/// Keeps every span it gets, for tests and for looking at spans in process.
class MCP_API memory_span_exporter final : public span_exporter {
 public:
  void export_span(span_record span) override;
  /// The spans so far, in the order they ended.
  std::vector<span_record> spans() const;
  /// Forgets the spans kept so far.
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<span_record> spans_;
};

/// Parent-based sampling with a ratio for root spans, decided from the
/// trace id as OpenTelemetry's TraceIdRatioBased does, so that every
/// process of a trace decides alike.
class MCP_API sampler {
 public:
  /// `root_ratio` in [0, 1]: the share of root spans recorded.
  explicit sampler(double root_ratio = 1.0) noexcept;
  /// Whether a new span of trace `id` is recorded: as its parent was, when
  /// it has one (`parent` valid), else by the ratio.
  bool sample(const span_context& parent, const trace_id& id) const noexcept;

 private:
  std::uint64_t bound_;  // a root span is sampled when its id's low 63 bits are below
};

class tracer;

/// A span under way. Ends when end() is called or it is destroyed; then, if
/// it is recorded, its record goes to the exporter. Not thread safe: one
/// span is one piece of work.
class MCP_API span {
 public:
  /// A span of nothing: invalid context, not recording.
  span() noexcept = default;
  /// Takes over `other`, which is left a span of nothing.
  span(span&& other) noexcept = default;
  /// Ends this span, then takes over `other`.
  span& operator=(span&& other) noexcept;
  /// Ends the span, as end() does.
  ~span() { end(); }

  /// Its ids and flags, to pass on to its children and to the peer (kept after end()).
  const span_context& context() const noexcept { return context_; }
  /// False for a span the sampler dropped (and after end()): attributes are
  /// then not kept.
  bool recording() const noexcept { return record_ != nullptr; }

  /// Sets the attribute `key`, replacing the value it had; ignored when not recording.
  void set_attribute(std::string key, attribute_value value);
  /// Sets the status (error: with `message`, which may be empty).
  void set_status(status_code status, std::string message = {});
  /// `error.type` and status error, as OpenTelemetry records a failed operation.
  void set_error(std::string type, std::string message = {});
  /// Stamps the end time and hands the record to the exporter (an exception
  /// the exporter throws loses the span); does nothing after the first time
  /// or when not recording.
  void end() noexcept;

 private:
  friend class tracer;
  span_context context_;
  std::unique_ptr<span_record> record_;
  std::shared_ptr<span_exporter> exporter_;
};

/// Starts spans and hands the ended ones to its exporter. Thread safe.
class MCP_API tracer {
 public:
  /// A null exporter records nothing (spans still get ids and propagate).
  explicit tracer(std::shared_ptr<span_exporter> exporter, double root_ratio = 1.0);

  /// A new span: a child of `parent` when that is valid (a remote parent,
  /// read from a traceparent), else the root of a new trace.
  span start_span(std::string name, span_kind kind, const span_context& parent) const;
  /// A new span, the root of a new trace.
  span start_span(std::string name, span_kind kind) const;

  /// Where its spans go (null: nowhere).
  const std::shared_ptr<span_exporter>& exporter() const noexcept { return exporter_; }

 private:
  std::shared_ptr<span_exporter> exporter_;
  telemetry::sampler sampler_;
};

}  // namespace mcp::telemetry
