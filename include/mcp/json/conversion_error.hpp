#pragma once
// The exception from_json throws: where in the input (a JSON pointer) and why.

#include <mcp/export.hpp>
#include <mcp/error.hpp>

#include <boost/system/errc.hpp>

#include <string>

namespace mcp {

/// Thrown when a JSON value does not convert to the requested C++ type.
///
/// what() is "<pointer>: <reason>", e.g. "/items/2/name: is required"; for
/// the document root, whose pointer is "", it is the reason alone.
/// Code: boost::system::errc::invalid_argument.
class MCP_API conversion_error : public error {
 public:
  /// `pointer`: where (an RFC 6901 JSON pointer); `reason`: why.
  conversion_error(std::string pointer, std::string reason)
      : error(make_error_code(boost::system::errc::invalid_argument), pointer.empty() ? reason : pointer + ": " + reason,
              whole_message{}),
        pointer_(std::move(pointer)),
        reason_(std::move(reason)) {}

  /// An RFC 6901 JSON pointer ("~" escaped as "~0", "/" as "~1"); "" is the root.
  const std::string& pointer() const noexcept { return pointer_; }
  /// Why, without the place: "is required", "expected integer, got string".
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string pointer_;
  std::string reason_;
};

}  // namespace mcp
