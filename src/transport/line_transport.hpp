#pragma once
// A message transport over a pair of file descriptors with newline-delimited
// frames: the stdio transport on both sides (server: our stdin/stdout;
// client: the child's stdout/stdin).

#include "line_framer.hpp"

#include <mcp/transport/transport.hpp>

#include <boost/asio/posix/stream_descriptor.hpp>

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mcp::detail {

/// One end of a pipe, socket, terminal or file. Asynchronous when the
/// descriptor can be polled; a regular file cannot, and is read and written
/// with plain calls (which never wait long on a regular file).
class fd_stream {
 public:
  fd_stream(asio::any_io_executor ex, int fd);  // takes ownership of fd
  ~fd_stream();
  fd_stream(const fd_stream&) = delete;
  fd_stream& operator=(const fd_stream&) = delete;

  /// Reads some bytes; 0 at end of stream. Throws on failure.
  asio::awaitable<std::size_t> read_some(char* data, std::size_t size);
  /// Writes every byte. Throws on failure.
  asio::awaitable<void> write_all(std::string_view data);
  void close() noexcept;
  bool is_open() const noexcept { return sd_.is_open() || plain_fd_ >= 0; }

 private:
  asio::posix::stream_descriptor sd_;
  int plain_fd_ = -1;  // set when the descriptor cannot be polled
};

class line_transport : public message_transport {
 public:
  line_transport(asio::any_io_executor ex, int in_fd, int out_fd, std::size_t max_frame_size);

  asio::any_io_executor get_executor() override { return executor_; }
  asio::awaitable<std::optional<inbound_frame>> read_frame() override;
  asio::awaitable<void> write_frame(std::string frame) override;
  bool batches_writes() const override { return true; }
  asio::awaitable<void> write_frames(std::vector<std::string> frames) override;
  asio::awaitable<void> close() override;

 protected:
  /// Closes the output side only (the peer then sees end of stream).
  void close_output() noexcept { out_.close(); }
  void close_input() noexcept { in_.close(); }

 private:
  asio::any_io_executor executor_;
  fd_stream in_;
  fd_stream out_;
  line_framer framer_;
  std::vector<char> chunk_;
  bool input_ended_ = false;
};

/// This process's environment variables, by name.
std::map<std::string, std::string> current_environment();

/// Ignores SIGPIPE once per process, so that writing to a peer that went away
/// is an error to handle rather than a signal that kills us.
void ignore_sigpipe() noexcept;

}  // namespace mcp::detail
