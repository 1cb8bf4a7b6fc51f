#pragma once
// The one base class of every exception the SDK throws, and the kinds a
// caller branches on. Each carries an error_code:
//
//   catch (const mcp::protocol_error& e)   // the peer answered with a JSON-RPC error:
//     e.code() == mcp::errc::method_not_found, e.error().message, e.error().data
//   catch (const mcp::malformed_result& e) // the server answered, but not as its method says
//   catch (const mcp::error& e)            // anything else the SDK reports:
//     e.code() == boost::asio::error::timed_out, operation_aborted (cancelled),
//     connection_aborted (the connection ended while the call waited), ...
//
// mcp::error is a boost::system::system_error (and so a std::runtime_error),
// so code that catches those goes on working. The kinds below it say their
// message whole in what(), without the code's text appended.

#include <mcp/export.hpp>

#include <boost/system/error_code.hpp>
#include <boost/system/system_error.hpp>

#include <string>
#include <type_traits>

namespace mcp {

/// What the SDK reports that neither JSON-RPC nor the system has a code for
/// (category "mcp").
enum class sdk_errc {
  tool_failed = 1,  ///< the tool reported a failure (`isError`): tool_call_error
  task_failed,      ///< a task ended failed without a JSON-RPC error: task_error
  task_cancelled,   ///< a task ended cancelled: task_error
};
/// The category of sdk_errc codes, named "mcp".
MCP_API const boost::system::error_category& sdk_category() noexcept;
/// Makes an sdk_errc an error_code of sdk_category(), so that `code ==
/// mcp::sdk_errc::tool_failed` compares.
MCP_API boost::system::error_code make_error_code(sdk_errc value) noexcept;

/// Every exception the SDK throws.
class MCP_API error : public boost::system::system_error {
 public:
  /// what() is as boost::system::system_error says it: "context: the code's
  /// message [category:value]" (the code's alone without a context).
  explicit error(boost::system::error_code code, const std::string& context = {});
  /// The whole message of a kind below; otherwise system_error's.
  const char* what() const noexcept override;

 protected:
  /// Tag: selects the constructor whose `message` is what() as it is.
  struct whole_message {};
  /// what() is `message` as it is: the kinds below, whose message says it all.
  error(boost::system::error_code code, std::string message, whole_message);

 private:
  std::string message_;  // empty: system_error's what()
};

/// A value the calling program gave that the SDK does not accept (an option,
/// an argument, a name, a schema): the program's mistake, found before
/// anything was sent. Code: boost::system::errc::invalid_argument.
class MCP_API invalid_argument : public error {
 public:
  /// `message` is what() as it is.
  explicit invalid_argument(std::string message);
};

/// A result that a server sent and the client cannot read as the result of
/// the method it called (a required member missing or mistyped, a list whose
/// pages never end). The server broke the protocol: this is not an error it
/// answered with. Code: boost::system::errc::bad_message.
class MCP_API malformed_result : public error {
 public:
  /// `message` is what() as it is; `method` the method called, if known.
  explicit malformed_result(std::string message, std::string method = {});
  /// The method whose result it was ("tools/list"), when the reader knew it.
  const std::string& method() const noexcept { return method_; }

 private:
  std::string method_;
};

}  // namespace mcp

/// \cond
template <>
struct boost::system::is_error_code_enum<mcp::sdk_errc> : std::true_type {};
/// \endcond
