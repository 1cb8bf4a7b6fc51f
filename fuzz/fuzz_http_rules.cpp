// MCP's rules on what a POST holds and on its headers (protocol/http_rules
// and protocol/x_mcp_header): the era of a body, its request ids, the
// routing headers of a 2026-07-28 request checked against its body, and the
// `x-mcp-header` annotations of a tool's inputSchema with the Mcp-Param-*
// headers of a call. Input parts, NUL-separated: the body, the
// MCP-Protocol-Version, Mcp-Method and Mcp-Name headers, an inputSchema.
// Checks that a header value written by encode_header_value decodes to
// itself.

#include <mcp/protocol/jsonrpc.hpp>

#include "fuzz_input.hpp"
#include "protocol/http_rules.hpp"
#include "protocol/x_mcp_header.hpp"

#include <cstdlib>

namespace {

namespace json = boost::json;
using namespace mcp::detail;

void check_header_value(std::string_view text) {
  const auto decoded = decode_header_value(encode_header_value(text));
  if (!decoded || *decoded != text) std::abort();
}

void check_mirrored(const json::value& schema, const json::object& request) {
  const auto* object = schema.if_object();
  if (!object) return;
  std::string why;
  const auto params = mirrored_params(*object, why);
  if (!params) return;
  const auto* p = request.if_contains("params");
  const auto* arguments = p && p->is_object() ? p->get_object().if_contains("arguments") : nullptr;
  if (!arguments || !arguments->is_object()) return;
  const auto headers = mirror_arguments(*params, arguments->get_object());
  // The headers a call carries match its arguments.
  const auto lookup = [&](std::string_view name) -> std::optional<std::string_view> {
    for (const auto& [header, value] : headers)
      if (header == name) return value;
    return std::nullopt;
  };
  (void)mirrored_mismatch(*params, arguments->get_object(), lookup);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto input = mcp::fuzz::parts(mcp::fuzz::as_text(data, size));
  const auto version = mcp::fuzz::part(input, 1);
  const received_routing_headers received{version, mcp::fuzz::part(input, 2), mcp::fuzz::part(input, 3)};
  (void)unknown_version_refusal(version);
  check_header_value(received.name);
  (void)decode_header_value(received.name);

  boost::system::error_code ec;
  const auto body = mcp::parse_json(mcp::fuzz::part(input, 0), ec);
  if (ec) return 0;
  (void)summarize(body);
  (void)is_modern_post(version, body);
  const auto* request = body.if_object();
  if (!request) return 0;
  (void)routing_headers(*request);
  (void)check_routing_headers(received, *request);
  const auto schema = mcp::parse_json(mcp::fuzz::part(input, 4), ec);
  if (!ec) check_mirrored(schema, *request);
  return 0;
}
