#pragma once
// The stdio transport, server side: newline-delimited JSON-RPC on stdin and
// stdout (spec: basic/transports, "stdio").

#include <mcp/export.hpp>
#include <mcp/transport/transport.hpp>

#include <memory>

namespace mcp {

/// The bounds of the server's stdio transport.
struct MCP_API stdio_options {
  /// The bound on one line read from stdin: a longer one is dropped and read
  /// as inbound_frame::oversized (the engine answers it and reads on).
  std::size_t max_frame_size = default_max_frame_size;
};

/// Takes over the process's stdin and stdout. From then on file descriptor 1
/// is pointed at stderr, so a stray `printf` or `std::cout` in user code lands
/// in the log instead of corrupting the protocol stream. Closing the transport
/// closes the protocol output, which the client sees as end of stream.
MCP_API std::unique_ptr<message_transport> make_stdio_transport(asio::any_io_executor ex);
/// As above, with options. (Not a defaulted argument: see docs/compilers.md.)
MCP_API std::unique_ptr<message_transport> make_stdio_transport(asio::any_io_executor ex,
                                                        stdio_options options);

}  // namespace mcp
