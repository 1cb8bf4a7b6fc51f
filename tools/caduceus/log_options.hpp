#pragma once
// --log-level and --log-format: the SDK's own log lines on stderr.

#include "arguments.hpp"

namespace caduceus {

/// Sets the SDK's log levels and format as the command line says (nothing
/// when it says nothing). Throws usage_error for a spec that does not read.
void apply_log_options(const invocation& inv);

}  // namespace caduceus
