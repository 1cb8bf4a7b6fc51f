#pragma once
// How serve-demo and gateway serve over HTTP: the access log and metrics the
// command line asks for, the endpoint URL as the first line of stdout, until
// SIGINT or SIGTERM.

#include "arguments.hpp"

#include <mcp/server/behaviour.hpp>
#include <mcp/server/http_server.hpp>

namespace caduceus {

/// Serves `behaviour` with `http` (--access-log and --metrics from `inv`
/// added); returns the exit code. Ends the process itself when handlers
/// outlived the shutdown (they still use `behaviour`).
int serve_http(mcp::server_behaviour& behaviour, mcp::http_server_options http, const invocation& inv);

}  // namespace caduceus
