#pragma once
// JSON-RPC and MCP error codes, the error object carried on the wire, and the
// exception that turns into one.

#include <boost/json/value.hpp>

#include <stdexcept>
#include <string>

namespace mcp {

namespace json = boost::json;

/// Error codes used on the wire. The JSON-RPC 2.0 codes keep the meaning that
/// JSON-RPC gives them; the MCP codes are the ones the spec revisions name.
namespace errc {
inline constexpr int parse_error = -32700;      ///< the text is not JSON (reply id is null)
inline constexpr int invalid_request = -32600;  ///< not a valid request object, or not allowed now
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;           ///< up to 2025-11-25
inline constexpr int url_elicitation_required = -32042;     ///< 2025-11-25
inline constexpr int header_mismatch = -32020;              ///< 2026-07-28
inline constexpr int missing_client_capability = -32021;    ///< 2026-07-28
inline constexpr int unsupported_protocol_version = -32022; ///< 2026-07-28
}  // namespace errc

/// The `error` member of a JSON-RPC error response.
struct rpc_error {
  int code = errc::internal_error;
  std::string message;
  json::value data;  ///< null means "absent"

  friend bool operator==(const rpc_error&, const rpc_error&) = default;
};

/// Thrown by a request handler to answer with a JSON-RPC error, and thrown by
/// the client when the peer answers a request with one.
class protocol_error : public std::runtime_error {
 public:
  explicit protocol_error(rpc_error error)
      : std::runtime_error(error.message), error_(std::move(error)) {}
  protocol_error(int code, std::string message, json::value data = nullptr)
      : protocol_error(rpc_error{code, std::move(message), std::move(data)}) {}

  const rpc_error& error() const noexcept { return error_; }
  int code() const noexcept { return error_.code; }

 private:
  rpc_error error_;
};

}  // namespace mcp
