#pragma once
// A transport moves frames of text between two peers; the engines above it read
// and write the JSON-RPC in them. What the interface knows of MCP comes with
// the frames and through a few hooks. An outgoing frame's frame_context names
// the requests it answers or serves (their ids as JSON text), a refusal,
// headers to send with it (Mcp-Param-*), and, for a request the client wrote
// itself, its id, whether it is `initialize` and its routing headers
// (sent_request). An inbound_frame may come parsed already
// (inbound_frame::parsed): the HTTP server reads each POST's body, the HTTP
// client each answer it receives. The HTTP client transport learns what it must
// of a frame (the requests it answers, a cancellation) from a binding that
// mcp::connect_http fills with MCP's rules, which also turns a failed exchange
// into a JSON-RPC error answer; src/transport itself includes nothing of
// protocol/, server/ or client/ (test/layers). The hooks: abandon and
// close_stream (a request that will get no answer, an SSE stream to let go),
// write_now and reaches_client (the HTTP server's session transports, and their
// copies in a cluster), set_protocol_version (the HTTP client's
// MCP-Protocol-Version), and transport_metadata's session_id (Mcp-Session-Id).

#include <mcp/export.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>

#include <mcp/transport/frame.hpp>
#include <mcp/transport/header_list.hpp>

#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

namespace asio = boost::asio;

/// What a handler may want to know about where a request came from.
struct MCP_API transport_metadata {
  std::string kind;  ///< "stdio", "memory", "http", ...
  std::string peer;  ///< the remote address, when there is one (a client's HTTP transport: the server's URL)
  /// The transport's own session id (HTTP's `Mcp-Session-Id`); the engine
  /// names its session after it. Empty for transports without one.
  std::string session_id;
  /// HTTP request headers (lower-case names, looked up in any case).
  header_list headers;
  /// The process environment, for stdio.
  std::map<std::string, std::string> environment;
};

/// The default bound on one inbound frame.
inline constexpr std::size_t default_max_frame_size = 4 * 1024 * 1024;

/// A bidirectional, message-framed connection.
///
/// @par Thread safety
/// Not thread safe: call every member from the transport's executor (a strand
/// when the io_context runs on several threads). At most one `read_frame` and
/// one write (`write_frame`, `write_routed` or `write_frames`) may be
/// outstanding at a time; the engines guarantee this.
class MCP_API message_transport {
 public:
  virtual ~message_transport() = default;

  /// The executor its I/O runs on: every member is called there.
  virtual asio::any_io_executor get_executor() = 0;

  /// Reads the next frame; `std::nullopt` at the orderly end of the stream.
  /// Throws `mcp::error` on an I/O failure.
  virtual asio::awaitable<std::optional<inbound_frame>> read_frame() = 0;

  /// Writes one frame completely. Throws `mcp::error` on failure.
  virtual asio::awaitable<void> write_frame(std::string frame) = 0;

  /// Writes a frame knowing what it belongs to. Transports with one stream
  /// ignore the context (the default).
  virtual asio::awaitable<void> write_routed(std::string frame, frame_context context) {
    (void)context;
    return write_frame(std::move(frame));
  }

  /// Whether a frame that belongs to no request reaches the client through
  /// this transport itself. False for one server's copy of a session that
  /// servers of a cluster share, while another server holds the session's
  /// GET stream (the copy relays such frames there).
  virtual bool reaches_client() const { return true; }

  /// True when writing never waits: the transport routes frames in process
  /// (the streams of one HTTP session) instead of writing to a socket. The
  /// engines then call write_now instead of queueing frames for a writer.
  virtual bool writes_at_once() const { return false; }

  /// Writes a frame without waiting; only on a transport that writes_at_once.
  virtual void write_now(std::string frame, frame_context context) {
    (void)frame;
    (void)context;
    throw std::logic_error("write_now: this transport does not write at once");
  }

  /// True when frames may go several at once through write_frames: one
  /// stream that needs no routing (a pipe). The engines then write whatever
  /// has queued up in one system call instead of one per frame.
  virtual bool batches_writes() const { return false; }

  /// Writes `frames` in order as one write (see batches_writes); by default
  /// one after the other.
  virtual asio::awaitable<void> write_frames(std::vector<std::string> frames) {
    for (auto& frame : frames) co_await write_frame(std::move(frame));
  }

  /// Ends the connection in order (for a child process: close its stdin,
  /// then SIGTERM, then SIGKILL, each after a deadline). Idempotent; never throws.
  virtual asio::awaitable<void> close() = 0;

  /// The request with this id (JSON text) will get no answer: it was
  /// cancelled. A transport holding a response open for it can end it.
  virtual void abandon(const std::string& request_id) { (void)request_id; }

  /// Lets go of the connection that carries the stream of this request
  /// (JSON text id) without ending the stream: the client reconnects and
  /// resumes it (SSE polling, spec 2025-11-25). Transports without resumable
  /// streams ignore it.
  virtual void close_stream(const std::string& request_id) { (void)request_id; }

  /// The client tells its transport the version `initialize` settled (HTTP
  /// sends it as `MCP-Protocol-Version` on every later request).
  virtual void set_protocol_version(std::string_view version) { (void)version; }

  /// Describes the connection; handlers see it through their context.
  virtual transport_metadata metadata() const { return {}; }
  /// The same, shared with the session that serves the connection. A
  /// transport that keeps its metadata hands it over without a copy (an HTTP
  /// session's headers, once per stateless request); by default a copy.
  virtual std::shared_ptr<const transport_metadata> shared_metadata() const {
    return std::make_shared<const transport_metadata>(metadata());
  }
};

}  // namespace mcp
