#include <mcp/transport/stdio.hpp>

#include "line_transport.hpp"

#include <cerrno>
#include <system_error>
#include <unistd.h>
#include <fcntl.h>

namespace mcp {

namespace {

int duplicate(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) throw std::system_error(errno, std::generic_category(), "dup stdio");
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
    throw std::system_error(errno, std::generic_category(), "redirect stdout");
  return std::make_unique<detail::line_transport>(ex, in, out, options.max_frame_size);
}

}  // namespace mcp
