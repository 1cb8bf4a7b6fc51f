#pragma once
// Splits a byte stream into newline-delimited frames (the stdio transport's
// framing), with a bound on the size of one frame. Sans-io.

#include <mcp/transport/transport.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

class line_framer {
 public:
  explicit line_framer(std::size_t max_frame_size) : max_(max_frame_size) {}

  /// Appends bytes read from the stream.
  void feed(std::string_view bytes);

  /// The next complete frame, if any. Blank lines are skipped and a trailing
  /// '\r' is dropped. A line longer than the bound is discarded up to its
  /// newline and reported once as an oversized frame.
  std::optional<inbound_frame> next();

  /// At end of stream: the unterminated last line, if any.
  std::optional<inbound_frame> finish();

 private:
  std::string buffer_;
  std::size_t start_ = 0;    // first unconsumed byte
  std::size_t scanned_ = 0;  // bytes from start_ known to hold no newline
  std::size_t max_;
  bool discarding_ = false;  // inside an oversized line
};

}  // namespace mcp::detail
