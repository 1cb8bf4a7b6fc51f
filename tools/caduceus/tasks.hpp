#pragma once
// `caduceus tasks ...`: tool calls the server runs in the background
// (2025-11-25 tasks and the 2026-07-28 tasks extension), on the client's
// tasks API (mcp/client/tasks.hpp).
//
//   tasks start TOOL [JSON]   start a call as a task, print its id
//   tasks call TOOL [JSON]    start it and wait for its result
//   tasks list                the tasks the server lists (2025-11-25)
//   tasks get ID              where a task stands
//   tasks cancel ID           ask the server to stop it
//   tasks wait ID             wait for its result, its status on a bar

#include "arguments.hpp"
#include "progress_bar.hpp"

#include <mcp/client/client.hpp>

#include <boost/asio/awaitable.hpp>

namespace caduceus {

/// Runs `tasks SUBCOMMAND ...` (inv.operands: the subcommand, then its words).
boost::asio::awaitable<int> run_tasks(mcp::client& client, const invocation& inv, progress_bar& bar);

}  // namespace caduceus
