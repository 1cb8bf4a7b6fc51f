#include <mcp/protocol/lifecycle.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"
#include "read_params.hpp"
#include "shaping.hpp"
#include "wire_readers.hpp"

#include <algorithm>

namespace mcp {

namespace {

// A client may send members of its own types where the spec lets it leave
// them out: those are skipped, as they always were.
constexpr read_options lenient{.skip_mistyped_optionals = true};

/// Narrows the implementation object at `key` of `out` to what `d` defines.
void shape_implementation_at(json::object& out, std::string_view key, const dialect& d) {
  auto& info = out.at(key).as_object();
  info = detail::shape_implementation(std::move(info), d);
}

/// initialize_result as it is on the wire, where the version is its name
/// ("2025-11-25"), checked against what the client supports once read.
struct initialize_result_wire {
  std::string protocol_version;
  json::object capabilities;
  implementation server_info;
  std::optional<std::string> instructions;
};
BOOST_DESCRIBE_STRUCT(initialize_result_wire, (), (protocol_version, capabilities, server_info, instructions))
[[maybe_unused]] auto mcp_fields(type_t<initialize_result_wire>) {
  return std::tuple{field(&initialize_result_wire::protocol_version).key("protocolVersion"),
                    field(&initialize_result_wire::server_info).key("serverInfo")};
}

}  // namespace

json::object to_json(const implementation& info, const dialect& d) {
  return detail::shape_implementation(to_json_value(info).as_object(), d);
}

implementation parse_implementation(const json::value& value, std::string_view where) {
  return detail::read_params<implementation>(value, where, lenient);
}

json::object to_json(const initialize_request& req) {
  const auto version = parse_protocol_version(req.protocol_version);
  auto out = to_json_value(req).as_object();
  shape_implementation_at(out, "clientInfo", dialect_of(version.value_or(latest_legacy_version)));
  return out;
}

initialize_request parse_initialize_request(const json::object& params) {
  return detail::read_params<initialize_request>(params, "/params", lenient);
}

bool declares_feature(const json::object& capabilities, std::string_view kind, std::string_view feature) noexcept {
  const auto* entry = detail::object_at(capabilities, {kind});
  return entry && detail::flag_member(*entry, feature);
}

json::object to_json(const initialize_result& result) {
  const auto& d = dialect_of(result.version);
  auto out = to_json_value(initialize_result_wire{std::string(to_string(result.version)),
                                                  shape_capabilities(result.capabilities, d),
                                                  result.server_info, result.instructions})
                 .as_object();
  shape_implementation_at(out, "serverInfo", d);
  return out;
}

initialize_result parse_initialize_result(const json::object& result,
                                          std::span<const protocol_version> supported) {
  auto given = detail::read_sent<initialize_result_wire>(result, [](const conversion_error& e) {
    return malformed_result("the server sent an invalid initialize result: /result" + e.pointer() + ": " + e.reason(),
                            "initialize");
  });
  const auto version = parse_protocol_version(given.protocol_version);
  if (!version || std::ranges::find(supported, *version) == supported.end())
    throw malformed_result("Server answered with unsupported protocol version " + given.protocol_version,
                           "initialize");
  return {*version, std::move(given.capabilities), std::move(given.server_info),
          std::move(given.instructions)};
}

std::optional<rpc_error> legacy_lifecycle::admit(std::string_view method) const {
  if (method == methods::ping) return std::nullopt;
  if (method == methods::initialize) {
    if (phase_ == phase::awaiting_initialize) return std::nullopt;
    return rpc_error{errc::invalid_request, "Invalid Request: the session is already initialized",
                     nullptr};
  }
  if (phase_ == phase::awaiting_initialize)
    return rpc_error{errc::invalid_request,
                     "Invalid Request: the session is not initialized; send initialize first",
                     nullptr};
  return std::nullopt;
}

}  // namespace mcp
