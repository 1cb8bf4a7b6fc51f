#pragma once
// Reading a text/event-stream (WHATWG HTML, "Server-sent events", event
// stream interpretation): lines end in CRLF, LF or CR; a line starting with a
// colon is a comment; `data` lines accumulate, joined by LF; `event`, `id` and
// `retry` set the type, the last event id and the reconnection time; a blank
// line dispatches. Bounded: an event (or a line) over the limit is dropped
// and counted, never buffered whole.

#include <chrono>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail::http_client {

struct sse_event {
  sse_event() {}  // not an aggregate (docs/compilers.md)
  std::string type = "message";
  std::string data;
  /// The last event id once this event was dispatched (ids persist across events).
  std::string id;
};

class sse_parser {
 public:
  explicit sse_parser(std::size_t max_event_size);

  /// Feeds bytes of the stream; complete events land in events().
  void feed(std::string_view bytes);

  /// Dispatched events not yet taken, oldest first.
  std::deque<sse_event>& events() noexcept { return events_; }

  /// The id of the last dispatched event (empty before any id).
  const std::string& last_event_id() const noexcept { return last_id_; }
  /// The reconnection time the stream asked for with `retry`, if any.
  std::optional<std::chrono::milliseconds> retry() const noexcept { return retry_; }
  /// Events dropped for exceeding the bound.
  std::size_t dropped() const noexcept { return dropped_; }

 private:
  void take_line(std::string_view line);
  void dispatch();

  std::size_t max_;
  std::deque<sse_event> events_;
  std::string line_;
  bool line_too_long_ = false;
  bool after_cr_ = false;      // the previous byte ended a line with CR (a LF may follow)
  bool first_line_ = true;     // a byte order mark may start the stream
  std::string data_;
  std::string type_;
  std::string id_buffer_;
  bool event_too_large_ = false;
  std::string last_id_;
  std::optional<std::chrono::milliseconds> retry_;
  std::size_t dropped_ = 0;
};

}  // namespace mcp::detail::http_client
