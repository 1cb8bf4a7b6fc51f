#include "sse_parser.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

namespace mcp::detail::http_client {

sse_parser::sse_parser(std::size_t max_event_size) : max_(max_event_size) {}

void sse_parser::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    if (after_cr_) {
      after_cr_ = false;
      if (bytes.front() == '\n') {
        bytes.remove_prefix(1);
        continue;
      }
    }
    const auto end = bytes.find_first_of("\r\n");
    const auto piece = bytes.substr(0, end);
    // A line over the bound is not kept: the event it belongs to is dropped.
    if (!line_too_long_ && line_.size() + piece.size() > max_ + 16) {
      line_too_long_ = true;
      line_.clear();
    }
    if (!line_too_long_) line_.append(piece);
    if (end == std::string_view::npos) return;
    after_cr_ = bytes[end] == '\r';
    bytes.remove_prefix(end + 1);
    if (line_too_long_) {
      line_too_long_ = false;
      event_too_large_ = true;
      line_.clear();
      // The field of the lost line is unknown; the line was not blank.
      continue;
    }
    std::string line = std::move(line_);
    line_.clear();
    take_line(line);
  }
}

void sse_parser::take_line(std::string_view line) {
  if (first_line_) {
    first_line_ = false;
    if (line.starts_with("\xEF\xBB\xBF")) line.remove_prefix(3);
  }
  if (line.empty()) {
    dispatch();
    return;
  }
  if (line.front() == ':') return;  // a comment
  std::string_view field = line;
  std::string_view value;
  if (const auto colon = line.find(':'); colon != std::string_view::npos) {
    field = line.substr(0, colon);
    value = line.substr(colon + 1);
    if (value.starts_with(' ')) value.remove_prefix(1);
  }
  if (field == "event") {
    type_ = value;
  } else if (field == "data") {
    if (event_too_large_ || data_.size() + value.size() > max_) {  // the last LF goes at dispatch
      event_too_large_ = true;
      data_.clear();
      return;
    }
    data_.append(value);
    data_.push_back('\n');
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) id_buffer_ = value;
  } else if (field == "retry") {
    std::uint64_t ms = 0;
    const auto* first = value.data();
    const auto* last = first + value.size();
    const auto [ptr, ec] = std::from_chars(first, last, ms);
    if (!value.empty() && ec == std::errc() && ptr == last && value.front() != '+')
      retry_ = std::chrono::milliseconds(static_cast<std::int64_t>(std::min<std::uint64_t>(ms, 86'400'000)));
  }
  // Other fields are ignored.
}

void sse_parser::dispatch() {
  last_id_ = id_buffer_;
  if (event_too_large_) {
    ++dropped_;
    event_too_large_ = false;
    data_.clear();
    type_.clear();
    return;
  }
  if (data_.empty()) {
    type_.clear();
    return;
  }
  data_.pop_back();  // the last line's LF
  sse_event event;
  if (!type_.empty()) event.type = std::move(type_);
  event.data = std::move(data_);
  event.id = last_id_;
  events_.push_back(std::move(event));
  data_.clear();
  type_.clear();
}

}  // namespace mcp::detail::http_client
