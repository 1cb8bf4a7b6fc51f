#pragma once
// The text of a child process's log file, read through the descriptor the
// test keeps (from the start, whatever the file offset).

#include <cerrno>
#include <string>

#include <sys/types.h>
#include <unistd.h>

namespace mcp::test {

inline std::string read_log(int fd) {
  std::string text;
  char buffer[4096];
  for (;;) {
    const auto n = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(text.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace mcp::test
