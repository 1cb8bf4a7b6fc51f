#pragma once
// A message transport over a pair of byte streams with newline-delimited
// frames: the stdio transport on both sides (server: our stdin/stdout;
// client: the child's stdout/stdin).

#include "byte_stream.hpp"
#include "line_framer.hpp"

#include <mcp/transport/transport.hpp>

#include <memory>
#include <string>
#include <vector>

namespace mcp::detail {

class line_transport : public message_transport {
 public:
  line_transport(asio::any_io_executor ex, std::unique_ptr<byte_stream> in, std::unique_ptr<byte_stream> out,
                 std::size_t max_frame_size);

  asio::any_io_executor get_executor() override { return executor_; }
  asio::awaitable<std::optional<inbound_frame>> read_frame() override;
  asio::awaitable<void> write_frame(std::string frame) override;
  bool batches_writes() const override { return true; }
  asio::awaitable<void> write_frames(std::vector<std::string> frames) override;
  asio::awaitable<void> close() override;

 protected:
  /// Closes the output side only (the peer then sees end of stream).
  void close_output() noexcept { out_->close(); }
  void close_input() noexcept { in_->close(); }

 private:
  asio::any_io_executor executor_;
  line_framer framer_;
  // Declared before the streams, so that it outlives them: on Windows the
  // system may write into it until the stream reading into it is closed.
  std::vector<char> chunk_;
  std::unique_ptr<byte_stream> in_;
  std::unique_ptr<byte_stream> out_;
  bool input_ended_ = false;
};

}  // namespace mcp::detail
