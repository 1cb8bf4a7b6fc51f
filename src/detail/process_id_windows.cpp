#include "process_id.hpp"

#include <windows.h>

namespace mcp::detail {

unsigned long process_id() noexcept { return GetCurrentProcessId(); }

}  // namespace mcp::detail
