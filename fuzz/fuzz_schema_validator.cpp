// The JSON Schema validator (json/validate.cpp): a schema a peer sends (a
// tool's inputSchema reaches a client; an elicitation's requestedSchema a
// client), compiled, then an instance checked against it. Input: the schema,
// a NUL byte, the instance. A malformed schema is mcp::invalid_argument;
// nothing else may escape, and every error's pointer is a JSON pointer.

#include <mcp/error.hpp>
#include <mcp/json/validate.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include "fuzz_input.hpp"

#include <cstdlib>
#include <stdexcept>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = mcp::fuzz::parts(mcp::fuzz::as_text(data, size));
  boost::system::error_code ec;
  auto schema = mcp::parse_json(mcp::fuzz::part(input, 0), ec);
  if (ec) return 0;
  const auto instance = mcp::parse_json(mcp::fuzz::part(input, 1), ec);
  if (ec) return 0;
  try {
    const mcp::schema_validator validator(std::move(schema));
    for (const auto& error : validator.validate(instance))
      if (!error.pointer.empty() && error.pointer.front() != '/') std::abort();
  } catch (const mcp::invalid_argument&) {
  }
  return 0;
}
