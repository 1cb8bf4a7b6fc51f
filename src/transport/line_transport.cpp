#include "line_transport.hpp"

#include <mcp/error.hpp>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include <cerrno>
#include <csignal>
#include <mutex>
#include <system_error>
#include <unistd.h>

extern char** environ;

namespace mcp::detail {

namespace {

constexpr std::size_t read_chunk_size = 64 * 1024;

[[noreturn]] void throw_errno(const char* what) {
  throw mcp::error(boost::system::error_code(errno, boost::system::generic_category()), what);
}

}  // namespace

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

fd_stream::fd_stream(asio::any_io_executor ex, int fd) : sd_(ex) {
  boost::system::error_code ec;
  sd_.assign(fd, ec);
  if (ec) plain_fd_ = fd;  // e.g. EPERM from epoll for a regular file
}

fd_stream::~fd_stream() { close(); }

void fd_stream::close() noexcept {
  boost::system::error_code ignored;
  if (sd_.is_open()) sd_.close(ignored);
  if (plain_fd_ >= 0) ::close(plain_fd_);
  plain_fd_ = -1;
}

asio::awaitable<std::size_t> fd_stream::read_some(char* data, std::size_t size) {
  if (plain_fd_ >= 0) {
    for (;;) {
      const auto n = ::read(plain_fd_, data, size);
      if (n >= 0) co_return std::size_t(n);
      if (errno != EINTR) throw_errno("read");
    }
  }
  boost::system::error_code ec;
  const auto n = co_await sd_.async_read_some(asio::buffer(data, size),
                                              asio::redirect_error(asio::use_awaitable, ec));
  if (ec == asio::error::eof) co_return 0;
  if (ec) throw mcp::error(ec, "read");
  co_return n;
}

asio::awaitable<void> fd_stream::write_all(std::string_view data) {
  if (plain_fd_ >= 0) {
    while (!data.empty()) {
      const auto n = ::write(plain_fd_, data.data(), data.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw_errno("write");
      data.remove_prefix(std::size_t(n));
    }
    co_return;
  }
  if (!sd_.is_open()) throw mcp::error(asio::error::bad_descriptor, "write");
  co_await asio::async_write(sd_, asio::buffer(data), asio::use_awaitable);
}

line_transport::line_transport(asio::any_io_executor ex, int in_fd, int out_fd,
                               std::size_t max_frame_size)
    : executor_(ex), in_(ex, in_fd), out_(ex, out_fd), framer_(max_frame_size),
      chunk_(read_chunk_size) {
  ignore_sigpipe();
}

asio::awaitable<std::optional<inbound_frame>> line_transport::read_frame() {
  for (;;) {
    if (auto frame = framer_.next()) co_return frame;
    if (input_ended_ || !in_.is_open()) co_return std::nullopt;
    const auto n = co_await in_.read_some(chunk_.data(), chunk_.size());
    if (n == 0) {
      input_ended_ = true;
      co_return framer_.finish();
    }
    framer_.feed({chunk_.data(), n});
  }
}

asio::awaitable<void> line_transport::write_frame(std::string frame) {
  frame.push_back('\n');
  co_await out_.write_all(frame);
}

asio::awaitable<void> line_transport::write_frames(std::vector<std::string> frames) {
  std::size_t size = 0;
  for (const auto& frame : frames) size += frame.size() + 1;
  std::string lines;
  lines.reserve(size);
  for (const auto& frame : frames) {
    lines += frame;
    lines.push_back('\n');
  }
  co_await out_.write_all(lines);
}

asio::awaitable<void> line_transport::close() {
  out_.close();
  in_.close();
  co_return;
}

}  // namespace mcp::detail
