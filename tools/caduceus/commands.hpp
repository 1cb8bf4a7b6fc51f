#pragma once
// The client commands (info, tools, call, resources, read, prompts, prompt,
// complete) on a connected client: each asks, then prints its result as text
// or, with --json, as one JSON document on stdout.

#include "arguments.hpp"
#include "progress_bar.hpp"

#include <mcp/client/client.hpp>

#include <boost/asio/awaitable.hpp>

namespace caduceus {

/// Runs `inv.command`; returns the exit code (1 for a tool result with
/// isError). Throws what the client throws.
boost::asio::awaitable<int> run_command(mcp::client& client, const invocation& inv, progress_bar& bar);

}  // namespace caduceus
