#pragma once
// The client commands (info, tools, call, resources, read, prompts, prompt,
// complete, ping, watch) on a connected client: each asks, then prints its
// result as text or, with --json, as JSON on stdout.

#include "arguments.hpp"
#include "progress_bar.hpp"
#include "server_requests.hpp"

#include <mcp/client/client.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>

#include <memory>
#include <string>
#include <vector>

namespace caduceus {

/// What a command keeps from before connect to its end (shared with the
/// client's callbacks, which may outlive the command).
struct command_state {
  explicit command_state(boost::asio::any_io_executor ex) : wake(ex) {}
  std::shared_ptr<server_requests> requests;  ///< notifications the command does not take go there
  // watch
  bool watching = false;      ///< set up: Ctrl-C now ends it in order (exit 0)
  bool acknowledged = false;  ///< the 2026-07-28 listen stream said it listens
  bool disconnected = false;
  std::vector<std::string> subscribed;
  boost::asio::steady_timer wake;  ///< cancelled when one of the above changes
};

/// Sets the client's callbacks the command needs before connect (watch:
/// the changes it prints).
void prepare_command(mcp::client& client, const invocation& inv, std::shared_ptr<command_state> state);

/// Runs `inv.command`; returns the exit code (1 for a tool result with
/// isError). Throws what the client throws.
boost::asio::awaitable<int> run_command(mcp::client& client, const invocation& inv, progress_bar& bar,
                                        command_state& state);

/// After Ctrl-C ended a watch: unsubscribes what it subscribed to.
boost::asio::awaitable<void> stop_watching(mcp::client& client, command_state& state);

}  // namespace caduceus
