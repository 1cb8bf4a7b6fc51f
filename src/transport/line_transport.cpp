#include "line_transport.hpp"

#include <mcp/error.hpp>

namespace mcp::detail {

namespace {

constexpr std::size_t read_chunk_size = 64 * 1024;

}  // namespace

line_transport::line_transport(asio::any_io_executor ex, std::unique_ptr<byte_stream> in,
                               std::unique_ptr<byte_stream> out, std::size_t max_frame_size)
    : executor_(std::move(ex)), framer_(max_frame_size), chunk_(read_chunk_size), in_(std::move(in)),
      out_(std::move(out)) {
  ignore_sigpipe();
}

asio::awaitable<std::optional<inbound_frame>> line_transport::read_frame() {
  for (;;) {
    if (auto frame = framer_.next()) co_return frame;
    if (input_ended_ || !in_->is_open()) co_return std::nullopt;
    const auto n = co_await in_->read_some(chunk_.data(), chunk_.size());
    if (n == 0) {
      input_ended_ = true;
      co_return framer_.finish();
    }
    framer_.feed({chunk_.data(), n});
  }
}

asio::awaitable<void> line_transport::write_frame(std::string frame) {
  frame.push_back('\n');
  co_await out_->write_all(frame);
}

asio::awaitable<void> line_transport::write_frames(std::vector<std::string> frames) {
  std::size_t size = 0;
  for (const auto& frame : frames) size += frame.size() + 1;
  std::string lines;
  lines.reserve(size);
  for (const auto& frame : frames) {
    lines += frame;
    lines.push_back('\n');
  }
  co_await out_->write_all(lines);
}

asio::awaitable<void> line_transport::close() {
  out_->close();
  in_->close();
  co_return;
}

}  // namespace mcp::detail
