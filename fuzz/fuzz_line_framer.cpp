// The stdio framing (transport/line_framer.cpp): a byte stream, read in
// chunks of any size, becomes newline-delimited frames under a size bound.
// Checks that no frame holds a newline or exceeds the bound, and that the
// bytes of the frames never exceed the bytes fed.

#include "transport/line_framer.hpp"

#include "fuzz_input.hpp"

#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::size_t bound = 256;
  mcp::detail::line_framer framer(bound);
  std::size_t fed = 0;
  std::size_t framed = 0;
  const auto check = [&](const mcp::inbound_frame& f) {
    if (f.oversized ? !f.text.empty() : f.text.size() > bound) std::abort();
    if (f.text.find('\n') != std::string::npos) std::abort();
    framed += f.text.size();
  };
  mcp::fuzz::feed_in_chunks(mcp::fuzz::as_text(data, size), [&](std::string_view chunk) {
    framer.feed(chunk);
    fed += chunk.size();
    while (auto f = framer.next()) check(*f);
  });
  if (auto last = framer.finish()) check(*last);
  if (framed > fed) std::abort();
  return 0;
}
