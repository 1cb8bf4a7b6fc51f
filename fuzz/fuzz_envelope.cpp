// The 2026-07-28 request envelope (protocol/envelope.cpp): the `_meta` of a
// modern request (version, client info and capabilities, log level) and the
// W3C trace context either era carries there. Input: a request's params.
// A bad envelope is protocol_error; the trace read is one the reader would
// read again after it is continued into other params.

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/versions.hpp>

#include "fuzz_input.hpp"

#include <cstdlib>

namespace {

namespace json = boost::json;

void check_trace(const json::object& params) {
  const auto trace = mcp::trace_of(params);
  if (trace.empty()) return;
  if (!mcp::valid_traceparent(trace.traceparent)) std::abort();
  json::object continued;
  mcp::continue_trace(continued, trace);
  if (mcp::trace_of(continued).traceparent != trace.traceparent) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = mcp::fuzz::as_text(data, size);
  (void)mcp::valid_traceparent(text);
  boost::system::error_code ec;
  const auto value = mcp::parse_json(text, ec);
  const auto* params = ec ? nullptr : value.if_object();
  if (!params) return 0;
  check_trace(*params);
  if (!mcp::carries_envelope(*params)) return 0;
  try {
    const auto envelope = mcp::read_envelope(*params);
    (void)mcp::envelope_version(envelope, mcp::all_versions());
  } catch (const mcp::protocol_error&) {
  }
  return 0;
}
