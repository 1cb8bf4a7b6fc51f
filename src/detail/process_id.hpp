#pragma once
// The calling process's id: what tells a forked child from its parent.

namespace mcp::detail {

/// The id of the calling process (getpid, GetCurrentProcessId).
unsigned long process_id() noexcept;

}  // namespace mcp::detail
