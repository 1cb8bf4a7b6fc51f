#pragma once
// Unpredictable identifiers (session ids, stream ids) from the kernel's CSPRNG.

#include <cstddef>
#include <string>

namespace mcp::detail {

/// `bytes` random bytes from getrandom(2), as lower-case hex (visible ASCII,
/// as the spec asks of Mcp-Session-Id).
std::string random_hex(std::size_t bytes);

}  // namespace mcp::detail
