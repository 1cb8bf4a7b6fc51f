#pragma once
// The access log: one log line per HTTP request a server of this process
// answers (category `access`, level info), built from the `http.request`
// telemetry event. docs/observability.md#logs shows the line.
//
//   auto access = mcp::enable_access_log();  // lines until `access` is destroyed
//
// Its level is set as any category's ("access=off" in CADUCEUS_LOG silences
// it); a bare level in a spec leaves it at info.

#include <mcp/export.hpp>
#include <mcp/telemetry/events.hpp>

namespace mcp {

/// Writes an access log line for each `http.request` event until the
/// subscription ends.
[[nodiscard]] MCP_API telemetry::subscription enable_access_log();

}  // namespace mcp
