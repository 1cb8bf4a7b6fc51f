#include <mcp/transport/stdio.hpp>
#include <mcp/error.hpp>

#include "line_transport.hpp"

#include <cerrno>
#include <system_error>
#include <fcntl.h>
#include <unistd.h>


namespace mcp {

namespace {

// The server's side of stdio: what a handler may read is the environment the
// client started it with (e.g. credentials passed as variables).
class stdio_server_transport final : public detail::line_transport {
 public:
  using line_transport::line_transport;

  transport_metadata metadata() const override {
    transport_metadata m;
    m.kind = "stdio";
    m.environment = detail::current_environment();
    return m;
  }
};

int duplicate(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "dup stdio");
  return copy;
}

}  // namespace

std::unique_ptr<message_transport> make_stdio_transport(asio::any_io_executor ex) {
  return make_stdio_transport(ex, stdio_options{});
}

std::unique_ptr<message_transport> make_stdio_transport(asio::any_io_executor ex,
                                                        stdio_options options) {
  const int in = duplicate(STDIN_FILENO);
  const int out = duplicate(STDOUT_FILENO);
  // Our copy of stdout is now the only way to the client; fd 1 becomes stderr.
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "redirect stdout");
  return std::make_unique<stdio_server_transport>(ex, in, out, options.max_frame_size);
}

}  // namespace mcp
