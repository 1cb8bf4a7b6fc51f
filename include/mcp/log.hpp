#pragma once
// Diagnostics of the SDK itself. They go to stderr, never stdout: stdout is
// the stdio transport. The level comes from CADUCEUS_LOG (trace, debug, info,
// warn, error, off; default warn) and can be changed at run time.

#include <functional>
#include <string_view>

namespace mcp {

enum class log_level { trace, debug, info, warn, error, off };

/// The current threshold; messages below it are dropped.
log_level sdk_log_level() noexcept;
void set_sdk_log_level(log_level level) noexcept;

/// Replaces where SDK diagnostics go (default: one line each on stderr).
/// Pass an empty function to restore the default.
void set_sdk_log_sink(std::function<void(log_level, std::string_view)> sink);

/// Writes one diagnostic line when `level` passes the threshold.
void sdk_log(log_level level, std::string_view text);

}  // namespace mcp
