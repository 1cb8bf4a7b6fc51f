#pragma once
// `caduceus serve-demo`: the everything demo (examples/everything_demo.hpp)
// served by this process.

#include "arguments.hpp"

namespace caduceus {

/// Serves over stdio, or over Streamable HTTP (and the legacy HTTP+SSE
/// endpoints) when `inv.http_port` is set, printing the endpoint URL as the
/// first line of stdout. Runs until stdin closes (stdio) or SIGINT/SIGTERM;
/// returns the exit code.
int serve_demo(const invocation& inv);

}  // namespace caduceus
