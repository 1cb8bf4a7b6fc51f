// The SDK's exceptions (mcp/error.hpp) and the JSON-RPC error category
// (mcp/protocol/errors.hpp).

#include <mcp/error.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/system/errc.hpp>

#include <string>

namespace mcp {

namespace {

class rpc_error_category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "mcp.jsonrpc"; }

  std::string message(int code) const override {
    switch (code) {
      case errc::parse_error: return "Parse error";
      case errc::invalid_request: return "Invalid request";
      case errc::method_not_found: return "Method not found";
      case errc::invalid_params: return "Invalid params";
      case errc::internal_error: return "Internal error";
      case errc::resource_not_found: return "Resource not found";
      case errc::url_elicitation_required: return "URL elicitation required";
      case errc::header_mismatch: return "Header mismatch";
      case errc::missing_client_capability: return "Missing client capability";
      case errc::unsupported_protocol_version: return "Unsupported protocol version";
      default: return "JSON-RPC error " + std::to_string(code);
    }
  }
};

class sdk_error_category final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "mcp"; }

  std::string message(int code) const override {
    switch (static_cast<sdk_errc>(code)) {
      case sdk_errc::tool_failed: return "The tool reported a failure";
      case sdk_errc::task_failed: return "The task failed";
      case sdk_errc::task_cancelled: return "The task was cancelled";
    }
    return "mcp error " + std::to_string(code);
  }
};

}  // namespace

const boost::system::error_category& sdk_category() noexcept {
  static const sdk_error_category category;
  return category;
}

boost::system::error_code make_error_code(sdk_errc value) noexcept {
  return {static_cast<int>(value), sdk_category()};
}

const boost::system::error_category& rpc_category() noexcept {
  static const rpc_error_category category;
  return category;
}

boost::system::error_code errc::make_error_code(code value) noexcept {
  return {static_cast<int>(value), rpc_category()};
}

error::error(boost::system::error_code code, const std::string& context)
    : boost::system::system_error(code, context) {}

error::error(boost::system::error_code code, std::string message, whole_message)
    : boost::system::system_error(code), message_(std::move(message)) {}

const char* error::what() const noexcept {
  return message_.empty() ? boost::system::system_error::what() : message_.c_str();
}

invalid_argument::invalid_argument(std::string message)
    : error(make_error_code(boost::system::errc::invalid_argument), std::move(message), whole_message{}) {}

malformed_result::malformed_result(std::string message, std::string method)
    : error(make_error_code(boost::system::errc::bad_message), std::move(message), whole_message{}),
      method_(std::move(method)) {}

protocol_error::protocol_error(rpc_error error)
    : mcp::error(boost::system::error_code(error.code, rpc_category()), error.message, whole_message{}),
      error_(std::move(error)) {}

}  // namespace mcp
