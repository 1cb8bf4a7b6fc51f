#pragma once
// Two transports linked to each other in memory: what one writes, the other
// reads. For tests and for embedding a server and a client in one process.

#include <mcp/export.hpp>
#include <mcp/transport/transport.hpp>

#include <memory>
#include <utility>

namespace mcp {

/// The bounds of a make_memory_pair link.
struct MCP_API memory_options {
  std::size_t capacity = 1024;  ///< frames buffered per direction before a writer waits
  /// A longer frame reaches the reader as inbound_frame::oversized, without its text.
  std::size_t max_frame_size = default_max_frame_size;
};

/// Both ends run on `ex`. Closing either end ends the stream for both.
std::pair<std::unique_ptr<message_transport>, std::unique_ptr<message_transport>>
MCP_API make_memory_pair(asio::any_io_executor ex);
/// As above, with options. (Not a defaulted argument: see docs/compilers.md.)
std::pair<std::unique_ptr<message_transport>, std::unique_ptr<message_transport>>
MCP_API make_memory_pair(asio::any_io_executor ex, memory_options options);

}  // namespace mcp
