#include "sse_events.hpp"

namespace loadgen {

namespace {

// The next line of `rest` without its end, consuming it; nullopt when the
// last line has no end (the stream stopped inside it).
std::optional<std::string_view> next_line(std::string_view& rest) {
  const auto end = rest.find_first_of("\r\n");
  if (end == std::string_view::npos) return std::nullopt;
  std::string_view line = rest.substr(0, end);
  const bool crlf = rest[end] == '\r' && end + 1 < rest.size() && rest[end + 1] == '\n';
  rest.remove_prefix(end + (crlf ? 2 : 1));
  return line;
}

}  // namespace

std::optional<std::vector<std::string>> split_sse(std::string_view body) {
  std::vector<std::string> messages;
  std::string data;
  bool has_data = false;
  bool has_fields = false;
  bool is_message = true;
  while (!body.empty()) {
    const auto line = next_line(body);
    if (!line) return std::nullopt;
    if (line->empty()) {  // dispatch
      if (!is_message) return std::nullopt;
      if (has_data && !data.empty()) messages.push_back(std::move(data));
      data.clear();
      has_data = has_fields = false;
      is_message = true;
      continue;
    }
    if (line->front() == ':') continue;  // a comment
    const auto colon = line->find(':');
    const std::string_view field = line->substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view{} : line->substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    has_fields = true;
    if (field == "data") {
      if (has_data) data += '\n';
      data += value;
      has_data = true;
    } else if (field == "event") {
      is_message = value == "message";
    }
  }
  if (has_fields) return std::nullopt;  // the last event was never dispatched
  return messages;
}

std::vector<sse_event> complete_events(std::string_view body) {
  std::vector<sse_event> events;
  sse_event event;
  bool has_fields = false;
  while (auto line = next_line(body)) {
    if (line->empty()) {
      if (has_fields) events.push_back(std::move(event));
      event = {};
      has_fields = false;
      continue;
    }
    if (line->front() == ':') continue;
    const auto colon = line->find(':');
    const std::string_view field = line->substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view{} : line->substr(colon + 1);
    if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    has_fields = true;
    if (field == "id") event.id = value;
    if (field == "data") {
      if (!event.data.empty()) event.data += '\n';
      event.data += value;
    }
  }
  return events;
}

}  // namespace loadgen
