#pragma once
// The envelope of a 2026-07-28 request: the per-request protocol fields in
// `params._meta` (basic/index, "Per-request protocol fields") that take the
// place of the legacy handshake. Whether a request carries one decides its
// era, once per message. No I/O here.

#include <mcp/export.hpp>
#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/protocol/versions.hpp>

#include <boost/json/object.hpp>

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace mcp {

/// The `_meta` keys the spec reserves for the envelope and its answers.
namespace meta_key {
/// Request, required: the revision the request is made at ("2026-07-28").
inline constexpr std::string_view protocol_version = "io.modelcontextprotocol/protocolVersion";
/// Request, optional (clients should send it): the client's implementation object.
inline constexpr std::string_view client_info = "io.modelcontextprotocol/clientInfo";
/// Request, required: the client's capabilities for this request alone (`{}`: none).
inline constexpr std::string_view client_capabilities = "io.modelcontextprotocol/clientCapabilities";
/// Request, optional: the least severe log level wanted; absent, the server
/// sends no `notifications/message` for the request. Deprecated (SEP-2577).
inline constexpr std::string_view log_level = "io.modelcontextprotocol/logLevel";
/// Result, optional (servers should send it): the server's implementation object.
inline constexpr std::string_view server_info = "io.modelcontextprotocol/serverInfo";
/// Notification on a `subscriptions/listen` stream, and the result that ends
/// it: the id of the `subscriptions/listen` request that opened the stream.
inline constexpr std::string_view subscription_id = "io.modelcontextprotocol/subscriptionId";
}  // namespace meta_key

/// W3C trace context carried in `_meta` (`traceparent`, `tracestate`,
/// `baggage`). A `traceparent` that is not a valid W3C one is dropped with
/// the rest, as W3C tells a receiver to do: the trace starts anew.
struct MCP_API trace_context {
  std::string traceparent;  ///< `version-traceid-parentid-flags`, lowercase hex; empty: no trace
  std::string tracestate;   ///< vendor entries, passed on as they came; empty when absent
  std::string baggage;      ///< W3C Baggage entries, passed on as they came; empty when absent

  /// Whether there is no trace: no `traceparent` (the rest is then ignored).
  bool empty() const noexcept { return traceparent.empty(); }
};

/// Whether `text` is a valid W3C `traceparent` (any version's).
MCP_API bool valid_traceparent(std::string_view text) noexcept;
/// The trace context of a request's `params._meta`, in either era; empty
/// when it has none or an invalid `traceparent`.
MCP_API trace_context trace_of(const json::object& params);
/// Puts `trace` in `params._meta` (traceparent, and tracestate and baggage
/// when set), unless it is empty or `_meta` has a traceparent already.
MCP_API void continue_trace(json::object& params, const trace_context& trace);

/// What a modern request says about itself.
struct MCP_API request_envelope {
  std::string protocol_version;  ///< as the client sent it
  json::object client_capabilities;  ///< for this request alone; empty: none declared
  std::optional<implementation> client_info;  ///< optional on the wire
  /// The least severe log level the client wants for this request; unset:
  /// no `notifications/message` at all for it.
  std::optional<logging_level> log_level;
  trace_context trace;  ///< empty when `_meta` has no valid `traceparent`
};

/// The envelope a client sends with a request at `version` (the `_meta`
/// members): the version, its client info and capabilities as that revision
/// has them, and the log level it wants, if any.
MCP_API json::object client_envelope(protocol_version version, const implementation& client_info,
                             json::object client_capabilities, std::optional<logging_level> log_level);

/// True when `params._meta` names a protocol version: the request belongs
/// to the modern era. Legacy traffic (`initialize`, sessions) has none.
MCP_API bool carries_envelope(const json::object& params) noexcept;

/// Reads the envelope of a request's `params`. Throws
/// protocol_error(invalid_params) when a required field is missing
/// (`data.envelope.missing` lists each: `_meta`, or the keys) or malformed
/// (`data.envelope.invalid`).
MCP_API request_envelope read_envelope(const json::object& params);

/// The revision to serve `envelope` at. Throws
/// protocol_error(unsupported_protocol_version) with `data.supported` (the
/// modern revisions of `supported`) and `data.requested` when it asks for
/// another one (an unknown or a legacy revision included).
MCP_API protocol_version envelope_version(const request_envelope& envelope,
                                  std::span<const protocol_version> supported);

}  // namespace mcp
