#pragma once
// The refusal of params a method cannot take, worded alike wherever a
// server makes it (the envelope, the listen filter, input rounds, handlers).

#include <mcp/protocol/errors.hpp>

#include <string>

namespace mcp::detail {

/// Throws protocol_error(-32602), "Invalid params: " and `message`.
[[noreturn]] inline void invalid_params(std::string message, json::value data = nullptr) {
  throw protocol_error(errc::invalid_params, "Invalid params: " + std::move(message), std::move(data));
}

}  // namespace mcp::detail
