#pragma once
// The failure of an HTTP exchange: what() says which request, which step and
// why ("POST https://host/mcp: connect to host:443: Connection refused"),
// without the source locations Boost adds to system_error messages.

#include <mcp/error.hpp>

#include <boost/system/error_code.hpp>

#include <string>

namespace mcp::detail::http_client {

class http_error : public mcp::error {
 public:
  http_error(boost::system::error_code ec, const std::string& context)
      : mcp::error(ec, context + ": " + ec.message(), whole_message{}) {}
  /// The context is the whole message (code: boost::system::errc::protocol_error).
  explicit http_error(const std::string& message)
      : mcp::error(make_error_code(boost::system::errc::protocol_error), message, whole_message{}) {}
  /// `inner`, its message after `context`, its code kept.
  http_error(const std::string& context, const http_error& inner)
      : mcp::error(inner.code(), context + ": " + inner.what(), whole_message{}) {}
};

}  // namespace mcp::detail::http_client
