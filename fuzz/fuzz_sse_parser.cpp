// The client's reader of text/event-stream (transport/http/client/
// sse_parser.cpp), fed a server's stream in chunks of any size. Checks the
// bound: no event's data is larger than the limit, whatever the stream.

#include "transport/http/client/sse_parser.hpp"

#include "fuzz_input.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t bound = 512;
  mcp::detail::http_client::sse_parser parser(bound);
  mcp::fuzz::feed_in_chunks(mcp::fuzz::as_text(data, size), [&](std::string_view chunk) {
    parser.feed(chunk);
    auto& events = parser.events();
    for (const auto& event : events)
      if (event.data.size() > bound) std::abort();
    events.clear();
  });
  return 0;
}
