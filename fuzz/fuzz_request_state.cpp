// The HMAC-protected `requestState` of 2026-07-28 multi-round requests
// (protocol/request_state.cpp): what a client hands back, which it may have
// forged or altered. Input parts: the state, a NUL byte, the params of the
// request it comes with. Opening never throws, and never accepts a state
// this key did not seal; a state it sealed opens to what was sealed.

#include <mcp/protocol/jsonrpc.hpp>

#include "fuzz_input.hpp"
#include "protocol/request_state.hpp"

#include <cstdlib>

namespace {

namespace json = boost::json;

const mcp::detail::request_state_codec& codec() {
  static const mcp::detail::request_state_codec c(std::string(32, 'k'), std::chrono::seconds(600));
  return c;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = mcp::fuzz::parts(mcp::fuzz::as_text(data, size));
  boost::system::error_code ec;
  auto params_value = mcp::parse_json(mcp::fuzz::part(input, 1), ec);
  json::object params;
  if (!ec && params_value.is_object()) params = params_value.get_object();
  const auto binding = mcp::detail::request_binding("tools/call", params, "principal");

  // Forged: only a MAC made with the key opens.
  if (codec().open(mcp::fuzz::part(input, 0), binding)) std::abort();

  // Sealed here: opens with its binding only, to what was sealed.
  mcp::detail::request_state_payload payload;
  payload.answers = params;
  // (What a handler carries is JSON it made: valid UTF-8, as parsed here.)
  payload.carried = ec ? json::value(nullptr) : params_value;
  const auto sealed = codec().seal(payload, binding);
  if (sealed.size() > (std::size_t{1} << 20)) return 0;  // over the bound open() keeps
  const auto opened = codec().open(sealed, binding);
  if (!opened || opened->answers != payload.answers || opened->carried != payload.carried) std::abort();
  if (codec().open(sealed, mcp::detail::request_binding("tools/call", params, "someone else"))) std::abort();
  return 0;
}
