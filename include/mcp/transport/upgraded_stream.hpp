#pragma once
// The connection under an HTTP request, handed over to carry another
// protocol on it: what an application's own HTTP server gives an
// mcp::http_endpoint for a WebSocket upgrade (http_upgrade,
// <mcp/server/http_endpoint.hpp>).

#include <mcp/export.hpp>

#include <boost/asio/buffer.hpp>
#include <boost/system/error_code.hpp>

#include <cstddef>
#include <functional>
#include <span>

namespace mcp {

/// The connection under an HTTP request, handed over to the endpoint to
/// carry MCP over WebSocket (http_upgrade): the application's byte stream,
/// plain or TLS, behind a small interface (the Beast adapter implements it
/// for its streams). The endpoint calls the members from a strand of its own,
/// one read and one write at a time; run each operation where the stream's
/// own operations run (its executor), and call its `done` once, from any
/// thread: the endpoint goes on from there on its strand.
class MCP_API upgraded_stream {
 public:
  /// Completes a read or write: its error (none on success), and the bytes moved.
  using io_done = std::function<void(boost::system::error_code, std::size_t)>;
  /// Completes async_teardown: its error, none on success.
  using end_done = std::function<void(boost::system::error_code)>;

  virtual ~upgraded_stream() = default;
  /// Reads some bytes into `buffer` (an AsyncReadStream's async_read_some).
  virtual void async_read_some(boost::asio::mutable_buffer buffer, io_done done) = 0;
  /// Writes some of `buffers` (an AsyncWriteStream's async_write_some); they
  /// stay valid until `done`.
  virtual void async_write_some(std::span<const boost::asio::const_buffer> buffers, io_done done) = 0;
  /// Ends the connection in order once WebSocket's closing handshake is
  /// done (the server's side of a teardown: TLS's close_notify, or TCP's
  /// shutdown and the peer's end).
  virtual void async_teardown(end_done done) = 0;
  /// Ends the connection at once (a peer that stopped answering): what is
  /// pending fails. Any thread.
  virtual void close() noexcept = 0;
};

}  // namespace mcp
