// The JSON conversions of what a peer sends (protocol/wire_readers.cpp and
// mcp/json/convert.hpp): a server's tools, resources, prompts, results and
// log lines as a client reads them. Each reader either returns a value or
// throws malformed_result saying where (protocol_error for what a client
// sends); any other exception escapes and is reported as a crash. What is read is written back and read again.

#include <mcp/error.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/wire.hpp>

#include "fuzz_input.hpp"
#include "protocol/wire_readers.hpp"

#include <boost/json/parse.hpp>

namespace {

namespace json = boost::json;
using namespace mcp::detail;

template <class Read>
void read_safely(Read&& read) {
  try {
    read();
  } catch (const mcp::malformed_result&) {
  } catch (const mcp::protocol_error&) {
  }
}

// A value read and written is read again the same way.
template <class T>
void round_trip(const T& value) {
  const json::value written = mcp::to_json_value(value);
  (void)mcp::from_json<T>(written);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  boost::system::error_code ec;
  const json::value value = mcp::parse_json(mcp::fuzz::as_text(data, size), ec);
  if (ec) return 0;
  read_safely([&] { round_trip(read_tool(value)); });
  read_safely([&] { round_trip(read_resource(value)); });
  read_safely([&] { round_trip(read_resource_template(value)); });
  read_safely([&] { round_trip(read_prompt(value)); });
  if (const auto* object = value.if_object()) {
    read_safely([&] { (void)read_resource_contents(*object); });
    read_safely([&] { (void)read_prompt_result(*object); });
    read_safely([&] { (void)read_call_tool_result(*object); });
    read_safely([&] { (void)read_completion(*object); });
    read_safely([&] { (void)read_log_message(*object); });
  }
  return 0;
}
