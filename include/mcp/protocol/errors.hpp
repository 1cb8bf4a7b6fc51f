#pragma once
// JSON-RPC and MCP error codes, their error_category, the error object carried
// on the wire, and the exception that turns into one.

#include <mcp/export.hpp>
#include <mcp/error.hpp>

#include <boost/json/value.hpp>
#include <boost/system/error_category.hpp>

#include <string>
#include <type_traits>

namespace mcp {

namespace json = boost::json;

/// Error codes used on the wire. The JSON-RPC 2.0 codes keep the meaning that
/// JSON-RPC gives them; the MCP codes are the ones the spec revisions name.
/// Each converts to an int (the wire value) and to a boost::system::error_code
/// of rpc_category(): `e.code() == mcp::errc::method_not_found`.
namespace errc {
/// The codes this library names; rpc_error::code is an int, so a peer's
/// other codes fit too.
enum code : int {
  parse_error = -32700,       ///< the text is not JSON (reply id is null)
  invalid_request = -32600,   ///< not a valid request object, or not allowed now
  method_not_found = -32601,  ///< no such method, or not in the session's revision
  invalid_params = -32602,    ///< params missing or malformed; from 2026-07-28 also an unknown resource
  internal_error = -32603,    ///< the receiver could not handle the request: its own failure
  resource_not_found = -32002,            ///< up to 2025-11-25
  url_elicitation_required = -32042,      ///< 2025-11-25
  header_mismatch = -32020,               ///< 2026-07-28
  missing_client_capability = -32021,     ///< 2026-07-28
  unsupported_protocol_version = -32022,  ///< 2026-07-28
};
/// Makes `value` an error_code of rpc_category(), so that
/// `e.code() == mcp::errc::method_not_found` compares (found by ADL).
MCP_API boost::system::error_code make_error_code(code value) noexcept;
}  // namespace errc

/// The category of JSON-RPC error codes ("mcp.jsonrpc"): every code a peer
/// may send, the named ones above and any other (a server's own -32000).
MCP_API const boost::system::error_category& rpc_category() noexcept;

/// The `error` member of a JSON-RPC error response.
struct MCP_API rpc_error {
  int code = errc::internal_error;  ///< an errc::code, or any other code the peer sent
  std::string message;              ///< a short description, one sentence as the spec asks
  json::value data;  ///< null means "absent"

  /// Member-wise: same code, message and data (data compared as JSON).
  friend bool operator==(const rpc_error&, const rpc_error&) = default;
};

/// Thrown by a request handler to answer with a JSON-RPC error, and thrown by
/// the client when the peer answers a request with one. code() is the
/// error's code in rpc_category(); what() its message.
class MCP_API protocol_error : public mcp::error {
 public:
  /// Carries `error` as it is: code() is `error.code`, what() `error.message`.
  explicit protocol_error(rpc_error error);
  /// The same from its parts; `data` null: no `data` member on the wire.
  protocol_error(int code, std::string message, json::value data = nullptr)
      : protocol_error(rpc_error{code, std::move(message), std::move(data)}) {}

  /// The error object, as sent or received.
  const rpc_error& error() const noexcept { return error_; }

 private:
  rpc_error error_;
};

}  // namespace mcp

/// \cond
template <>
struct boost::system::is_error_code_enum<mcp::errc::code> : std::true_type {};
/// \endcond
