#pragma once
// `caduceus gateway`: serves an MCP server that a command starts (--stdio)
// or that answers at a URL (--url) to clients of every revision: over
// Streamable HTTP, the older HTTP+SSE and WebSocket with --http, else over
// this process's stdio. See docs/gateway.md.

#include "../arguments.hpp"

namespace caduceus {

/// Connects to the upstream once to learn what it is, then serves until
/// SIGINT/SIGTERM (HTTP, printing the endpoint URL as the first line of
/// stdout) or until stdin closes (stdio). Returns the exit code.
int run_gateway(const invocation& inv);

}  // namespace caduceus
