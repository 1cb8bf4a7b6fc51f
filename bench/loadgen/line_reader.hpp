#pragma once
// Reads newline-delimited frames from a pipe: whole chunks in, lines out, so
// a pipelining reader handles every reply that has arrived before it writes.

#include <boost/asio/awaitable.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace loadgen {

namespace asio = boost::asio;

class line_reader {
 public:
  explicit line_reader(asio::posix::stream_descriptor& pipe) : pipe_(pipe) {}

  /// Reads what the pipe has. Throws boost::system::system_error, with
  /// asio::error::eof when the writer has closed it.
  asio::awaitable<void> fill();
  /// The next complete line already read, without its end; valid until the
  /// next fill().
  std::optional<std::string_view> pop_line();

 private:
  asio::posix::stream_descriptor& pipe_;
  std::string buffer_;
  std::size_t consumed_ = 0;
};

}  // namespace loadgen
