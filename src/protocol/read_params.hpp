#pragma once
// Reading what a peer sent into its declared type (methods.hpp names it,
// messages.hpp declares it, wire.hpp gives its JSON form). A client's params
// that do not convert are refused with -32602, in the words peers have
// always been given: "Invalid params: /params/name must be a string".

#include <mcp/json/convert.hpp>
#include <mcp/protocol/jsonrpc.hpp>

#include "invalid_params.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

/// "Invalid params: " + `where` + the error's pointer + why, as a protocol_error(-32602).
protocol_error params_refusal(const conversion_error& e, std::string_view where);

/// Reads a T from `value`, the JSON at `where` ("/params", or a place in
/// it). Strict unless `options` say otherwise: a member of the wrong type is
/// refused, not skipped, since the client is to fix it.
template <class T, class Json>
T read_params(const Json& value, std::string_view where = "/params", read_options options = {}) {
  try {
    return from_json<T>(value, options);
  } catch (const conversion_error& e) {
    throw params_refusal(e, where);
  }
}

/// Reads a T from what a peer sent, or nothing when it is not one: for a
/// value whose shape decides what it is, or that is read leniently.
template <class T, class Json>
std::optional<T> read_if(const Json& value, read_options options = {}) {
  try {
    return from_json<T>(value, options);
  } catch (const conversion_error&) {
    return std::nullopt;
  }
}

/// The request a notifications/cancelled names, when its params name one
/// (read as the declared cancelled_params; a peer's mistyped `reason` does
/// not hide the id).
std::optional<request_id> cancelled_request(const json::object& params);

/// The params of the request of method tag `Method` (method::tools_call...).
template <class Method>
typename Method::params read_params_of(const json::object& params) {
  return read_params<typename Method::params>(params);
}

}  // namespace mcp::detail
