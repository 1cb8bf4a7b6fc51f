#include "process_id.hpp"

#include <unistd.h>

namespace mcp::detail {

unsigned long process_id() noexcept { return static_cast<unsigned long>(getpid()); }

}  // namespace mcp::detail
