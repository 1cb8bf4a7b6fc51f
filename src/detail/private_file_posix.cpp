#include "private_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace mcp::detail {

void replace_private_file(const std::filesystem::path& path, std::string_view text) {
  const auto temporary = path.string() + ".tmp";
  // 0600 from the start (and again should an old file of that name be there).
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
  const bool written = ::fchmod(fd, 0600) == 0 &&
                       ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                       ::fsync(fd) == 0;
  const int saved = errno;
  ::close(fd);
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int why = written ? errno : saved;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(why));
  }
}

}  // namespace mcp::detail
