// byte_stream.hpp on POSIX systems (Linux, macOS): file descriptors.

#include "byte_stream.hpp"

#include <mcp/error.hpp>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

extern char** environ;

namespace mcp::detail {

namespace {

[[noreturn]] void throw_fd_errno(const char* what) {
  throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), what);
}

/// One end of a pipe, socket, terminal or file. Asynchronous when the
/// descriptor can be polled; a regular file cannot, and is read and written
/// with plain calls (which never wait long on a regular file). So are
/// /dev/null and terminals on macOS, whose kqueue refuses them.
class fd_stream final : public byte_stream {
 public:
  fd_stream(asio::any_io_executor ex, int fd) : sd_(std::move(ex)) {
    boost::system::error_code ec;
    sd_.assign(fd, ec);
    if (ec) plain_fd_ = fd;  // e.g. EPERM from epoll for a regular file
  }
  ~fd_stream() override { close(); }
  fd_stream(const fd_stream&) = delete;
  fd_stream& operator=(const fd_stream&) = delete;

  asio::awaitable<std::size_t> read_some(char* data, std::size_t size) override {
    if (plain_fd_ >= 0) {
      for (;;) {
        const auto n = ::read(plain_fd_, data, size);
        if (n >= 0) co_return std::size_t(n);
        if (errno != EINTR) throw_fd_errno("read");
      }
    }
    boost::system::error_code ec;
    const auto n = co_await sd_.async_read_some(asio::buffer(data, size),
                                                asio::redirect_error(asio::use_awaitable, ec));
    if (ec == asio::error::eof) co_return 0;
    if (ec) throw mcp::error(ec, "read");
    co_return n;
  }

  asio::awaitable<void> write_all(std::string_view data) override {
    if (plain_fd_ >= 0) {
      while (!data.empty()) {
        const auto n = ::write(plain_fd_, data.data(), data.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw_fd_errno("write");
        data.remove_prefix(std::size_t(n));
      }
      co_return;
    }
    if (!sd_.is_open()) throw mcp::error(asio::error::bad_descriptor, "write");
    co_await asio::async_write(sd_, asio::buffer(data), asio::use_awaitable);
  }

  void close() noexcept override {
    boost::system::error_code ignored;
    if (sd_.is_open()) sd_.close(ignored);
    if (plain_fd_ >= 0) ::close(plain_fd_);
    plain_fd_ = -1;
  }

  bool is_open() const noexcept override { return sd_.is_open() || plain_fd_ >= 0; }

 private:
  asio::posix::stream_descriptor sd_;
  int plain_fd_ = -1;  // set when the descriptor cannot be polled
};

// A copy of `fd` that no child inherits, numbered above stdio's.
int duplicate_stdio(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "dup stdio");
  return copy;
}

}  // namespace

std::unique_ptr<byte_stream> make_pipe_stream(asio::any_io_executor ex, native_handle handle) {
  return std::make_unique<fd_stream>(std::move(ex), handle);
}

standard_streams take_standard_streams(asio::any_io_executor ex) {
  const int in = duplicate_stdio(STDIN_FILENO);
  const int out = duplicate_stdio(STDOUT_FILENO);
  // Our copy of stdout is now the only way to the client; fd 1 becomes stderr.
  if (::dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
    throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), "redirect stdout");
  return {std::make_unique<fd_stream>(ex, in), std::make_unique<fd_stream>(ex, out)};
}

std::map<std::string, std::string> current_environment() {
  std::map<std::string, std::string> variables;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string_view text(*entry);
    if (const auto eq = text.find('='); eq != std::string_view::npos)
      variables.emplace(text.substr(0, eq), text.substr(eq + 1));
  }
  return variables;
}

void ignore_sigpipe() noexcept {
  static std::once_flag once;
  std::call_once(once, [] { std::signal(SIGPIPE, SIG_IGN); });
}

}  // namespace mcp::detail
