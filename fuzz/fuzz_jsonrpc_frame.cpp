// The JSON-RPC frame reader (protocol/jsonrpc.cpp): a line on stdio or a POST
// body becomes messages and the errors the bad ones deserve. Checks that it
// never throws, that every reply it makes serializes to a message it reads
// back as the same kind, and that what it reads re-serializes to a frame it
// reads alike.

#include <mcp/protocol/jsonrpc.hpp>

#include "fuzz_input.hpp"

#include <cstdlib>
#include <variant>

namespace {

// A message written and read again is the same kind of message.
void check_round_trip(const mcp::message& m) {
  const auto again = mcp::parse_frame(mcp::serialize(m));
  if (again.batch || again.items.size() != 1) std::abort();
  const auto* read = std::get_if<mcp::message>(&again.items.front());
  if (!read || read->index() != m.index()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto frame = mcp::parse_frame(mcp::fuzz::as_text(data, size));
  if (frame.items.empty()) std::abort();  // even an empty batch gets its one error
  for (const auto& item : frame.items) {
    if (const auto* m = std::get_if<mcp::message>(&item)) check_round_trip(*m);
    else check_round_trip(std::get<mcp::invalid_message>(item).reply);
  }
  return 0;
}
