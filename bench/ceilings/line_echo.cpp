// bench-line-echo: the stdio ceiling of the benchmarks. Writes every line
// it reads on stdin back on stdout, whole lines only, as fast as the pipes
// allow: what an MCP server over stdio could at best reach on this machine.

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace {

bool write_all(const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = write(STDOUT_FILENO, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return false;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

}  // namespace

int main() {
  std::vector<char> buffer(64 * 1024);
  std::size_t kept = 0;  // the start of a line not yet complete
  for (;;) {
    if (kept == buffer.size()) buffer.resize(buffer.size() * 2);  // a line longer than the buffer
    const ssize_t got = read(STDIN_FILENO, buffer.data() + kept, buffer.size() - kept);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return 0;
    const std::size_t filled = kept + static_cast<std::size_t>(got);
    const char* data = buffer.data();
    std::size_t complete = filled;
    while (complete > 0 && data[complete - 1] != '\n') --complete;
    if (!write_all(data, complete)) return 1;
    kept = filled - complete;
    std::memmove(buffer.data(), data + complete, kept);
  }
}
