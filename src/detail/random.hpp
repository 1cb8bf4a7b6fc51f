#pragma once
// Identifiers: unpredictable ones (session ids) from OpenSSL's CSPRNG, and
// merely unique ones (stream ids) from a generator it seeds.

#include <mcp/export.hpp>

#include <cstddef>
#include <string>

namespace mcp::detail {

/// `bytes` random bytes from OpenSSL's RAND_bytes, as lower-case hex (visible
/// ASCII, as the spec asks of Mcp-Session-Id). Drawn a block at a time per
/// thread, each byte handed out once. (MCP_API: caduceus::cluster
/// calls it, a library of its own in a shared build.)
MCP_API std::string random_hex(std::size_t bytes);

/// 12 lower-case hex digits, unique with high probability but not secret:
/// from a generator seeded once per thread by random_hex, so that ids made
/// on every request cost no system call.
std::string unique_hex();

}  // namespace mcp::detail
