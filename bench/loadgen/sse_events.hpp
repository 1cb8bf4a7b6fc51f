#pragma once
// Splits a complete text/event-stream body into the data of its events
// (WHATWG rules: LF, CRLF or CR line ends; `data` lines joined with LF;
// comments, other fields and events without data, such as the priming event
// of a resumable stream, skipped).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loadgen {

/// The data of each event of `body` that carries some, in order;
/// std::nullopt when it ends inside an event or an event is not of type
/// `message` (an MCP client would drop it).
std::optional<std::vector<std::string>> split_sse(std::string_view body);

/// An event of a stream still being read: its id and data.
struct sse_event {
  std::string id;
  std::string data;
};
/// The events of `body` complete so far (ended by their blank line), data or
/// not (a priming event has an id and no data); what follows the last one is
/// left for later.
std::vector<sse_event> complete_events(std::string_view body);

}  // namespace loadgen
