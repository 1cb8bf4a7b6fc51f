#pragma once
// The failure of an HTTP exchange: what() says which request, which step and
// why ("POST https://host/mcp: connect to host:443: Connection refused"),
// without the source locations Boost adds to system_error messages.

#include <boost/system/error_code.hpp>

#include <stdexcept>
#include <string>

namespace mcp::detail::http_client {

class http_error : public std::runtime_error {
 public:
  http_error(boost::system::error_code ec, const std::string& context)
      : std::runtime_error(context + ": " + ec.message()), code_(ec) {}
  /// The context is the whole message.
  explicit http_error(const std::string& message) : std::runtime_error(message) {}

  boost::system::error_code code() const noexcept { return code_; }

 private:
  boost::system::error_code code_;
};

}  // namespace mcp::detail::http_client
