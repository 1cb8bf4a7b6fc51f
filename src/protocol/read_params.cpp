#include "read_params.hpp"

#include <mcp/protocol/wire.hpp>

namespace mcp::detail {

protocol_error params_refusal(const conversion_error& e, std::string_view where) {
  const std::string_view reason = e.reason();
  std::string what(reason);
  if (reason.starts_with("expected ")) {  // "expected object, got string": "must be an object"
    const auto kind = reason.substr(9, reason.find(',') - 9);
    const bool vowel = kind.starts_with('o') || kind.starts_with('a') || kind.starts_with('i');
    what = std::string(vowel ? "must be an " : "must be a ") + std::string(kind);
  }
  return protocol_error(errc::invalid_params, "Invalid params: " + std::string(where) + e.pointer() + " " + what);
}

std::optional<request_id> cancelled_request(const json::object& params) {
  auto read = read_if<cancelled_params>(params, read_options{.skip_mistyped_optionals = true});
  return read ? std::move(read->request_id) : std::nullopt;
}

}  // namespace mcp::detail
