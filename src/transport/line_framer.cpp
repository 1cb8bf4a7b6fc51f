#include "line_framer.hpp"

namespace mcp::detail {

namespace {

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

void line_framer::feed(std::string_view bytes) {
  if (start_ > 0 && start_ >= buffer_.size() / 2) {  // compact now and then, not per line
    buffer_.erase(0, start_);
    start_ = 0;
  }
  buffer_.append(bytes);
}

std::optional<inbound_frame> line_framer::next() {
  for (;;) {
    const auto newline = buffer_.find('\n', start_ + scanned_);
    if (newline == std::string::npos) {
      scanned_ = buffer_.size() - start_;
      // A trailing '\r' may be the start of a CRLF terminator: not frame content.
      const std::size_t pending = scanned_ - (scanned_ > 0 && buffer_.back() == '\r' ? 1 : 0);
      if (pending > max_) {  // too long already: drop what we have, keep dropping to the newline
        discarding_ = true;
        buffer_.clear();
        start_ = scanned_ = 0;
      }
      return std::nullopt;
    }
    std::string_view line(buffer_.data() + start_, newline - start_);
    start_ = newline + 1;
    scanned_ = 0;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // the bound is on the frame
    if (discarding_ || line.size() > max_) {
      discarding_ = false;
      return inbound_frame{{}, true};
    }
    if (is_blank(line)) continue;
    return inbound_frame{std::string(line), false};
  }
}

std::optional<inbound_frame> line_framer::finish() {
  if (discarding_) {
    discarding_ = false;
    buffer_.clear();
    start_ = scanned_ = 0;
    return inbound_frame{{}, true};
  }
  // Copy before clearing: clear() writes a terminator over the buffer's first byte.
  std::string rest = buffer_.substr(start_);
  buffer_.clear();
  start_ = scanned_ = 0;
  if (is_blank(rest)) return std::nullopt;
  if (rest.back() == '\r') rest.pop_back();
  if (rest.size() > max_) return inbound_frame{{}, true};
  return inbound_frame{std::move(rest), false};
}

}  // namespace mcp::detail
