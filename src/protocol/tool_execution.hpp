#pragma once
// A Tool's `execution` (2025-11-25 on): whether a call may run as a task. The
// declared tool_info holds it as its task_support member, which ABI keeps
// where it is; this is its JSON form, written by tool_info::to_json() and
// read by the client's read_tool().

#include <mcp/protocol/wire.hpp>

namespace mcp::detail {

struct tool_execution {
  mcp::task_support task_support = mcp::task_support::forbidden;
};
BOOST_DESCRIBE_STRUCT(tool_execution, (), (task_support))
inline auto mcp_fields(type_t<tool_execution>) {
  return std::tuple{field(&tool_execution::task_support).key("taskSupport")};
}

/// The member of a Tool object that holds it.
struct tool_execution_member {
  std::optional<tool_execution> execution;
};
BOOST_DESCRIBE_STRUCT(tool_execution_member, (), (execution))

}  // namespace mcp::detail
