#pragma once
// The tasks a server sends, read into task_info from the declared Task of
// each era (mcp/protocol/messages.hpp): the 2025-11-25 `task` and the
// extension's `detailed_task`.

#include <mcp/client/tasks.hpp>
#include <mcp/protocol/messages.hpp>

namespace mcp::detail {

task_info task_info_of(task given);
task_info task_info_of(detailed_task given);
/// The task a server sent, in the form of the session's era (`modern`:
/// 2026-07-28's extension). @throws malformed_result naming what is wrong.
task_info read_task(const json::object& sent, bool modern);

}  // namespace mcp::detail
