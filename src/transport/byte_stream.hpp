#pragma once
// Bytes to and from a pipe, terminal or file: what the stdio transports
// (line_transport) frame, and a child process's stderr. One implementation
// per platform (byte_stream_posix.cpp, byte_stream_windows.cpp), with what
// else about stdio differs between them: this process's own stdin and
// stdout, its environment, SIGPIPE.

#include <mcp/transport/transport.hpp>

#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace mcp::detail {

/// One direction (or both) of a pipe, terminal or file. Use it from its
/// executor only; at most one read_some and one write_all at a time. Both
/// operations end early, with mcp::error(operation_aborted), when cancelled
/// (the awaiting coroutine's cancellation slot) or closed.
class byte_stream {
 public:
  virtual ~byte_stream() = default;

  /// Reads some bytes into `data`; 0 at the end of the stream. Throws
  /// mcp::error on failure.
  virtual asio::awaitable<std::size_t> read_some(char* data, std::size_t size) = 0;
  /// Writes every byte of `data`. Throws mcp::error on failure.
  virtual asio::awaitable<void> write_all(std::string_view data) = 0;
  /// Closes the stream (a peer reading it sees its end).
  virtual void close() noexcept = 0;
  virtual bool is_open() const noexcept = 0;
};

/// What the operating system names an open pipe or file by: a file
/// descriptor on POSIX systems, a HANDLE on Windows.
#if defined(_WIN32)
using native_handle = void*;
#else
using native_handle = int;
#endif

/// Takes ownership of a pipe end (on Windows, one opened for overlapped I/O)
/// or, on POSIX systems, of any descriptor.
std::unique_ptr<byte_stream> make_pipe_stream(asio::any_io_executor ex, native_handle handle);

/// This process's stdin and stdout, for the stdio server transport.
struct standard_streams {
  std::unique_ptr<byte_stream> in;
  std::unique_ptr<byte_stream> out;
};

/// Takes copies of stdin and stdout that no child process inherits, then
/// points stdout at stderr: from then on a stray `printf` or `std::cout`
/// lands in the log instead of the protocol stream. Throws mcp::error.
standard_streams take_standard_streams(asio::any_io_executor ex);

/// This process's environment variables, by name (UTF-8).
std::map<std::string, std::string> current_environment();

/// Ignores SIGPIPE once per process, so that writing to a peer that went away
/// is an error to handle rather than a signal that kills us. (Windows has no
/// SIGPIPE: there such a write fails anyway.)
void ignore_sigpipe() noexcept;

}  // namespace mcp::detail
