// console.hpp on POSIX systems (Linux, macOS).

#include "console.hpp"

#include <poll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>

namespace caduceus {

bool stdin_is_terminal() { return ::isatty(STDIN_FILENO) == 1; }

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

std::size_t stderr_columns() {
  winsize size{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0) return size.ws_col;
  return 0;
}

// poll(), not a non-blocking stdin: that flag belongs to the open file,
// which the shell shares.
bool wait_for_stdin(std::chrono::milliseconds slice) {
  pollfd p{STDIN_FILENO, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(slice.count())) > 0;
}

long read_stdin(char* buffer, std::size_t size) {
  const auto n = ::read(STDIN_FILENO, buffer, size);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return -1;
  return n < 0 ? 0 : static_cast<long>(n);
}

// A read happens only after poll() said it will not wait.
void interrupt_stdin() {}

}  // namespace caduceus
