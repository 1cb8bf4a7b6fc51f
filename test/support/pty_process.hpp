#pragma once
// A program run on a pseudo-terminal, as a person at a terminal runs it: its
// stdin and stderr are the terminal (its controlling terminal, so a Ctrl-C
// typed there is a SIGINT to it), its stdout is a pipe read apart. The test
// types into the terminal and waits for what appears on it. Every wait is
// bounded; the program is SIGKILLed and reaped however the test ends.
//
//   mcp::test::pty_process p({"build/bin/caduceus", "--stdio", "...", "call", "confirm"});
//   p.expect("> ");
//   p.type("y\n");

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "spawn_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

class pty_process {
 public:
  using clock = std::chrono::steady_clock;

  explicit pty_process(std::vector<std::string> argv) {
    if (argv.empty()) throw std::runtime_error("pty_process: no program");
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0)
      throw std::runtime_error(std::string("no pseudo-terminal: ") + std::strerror(errno));
    const std::string slave = ::ptsname(master_);
    int out[2];
    if (::pipe2(out, O_CLOEXEC) < 0) throw std::runtime_error("pipe failed");
    out_fd_ = out[0];

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // A new session first (glibc runs it before the file actions), so that
    // opening the terminal makes it the session's controlling terminal.
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, slave.c_str(), O_RDWR, 0);
    posix_spawn_file_actions_adddup2(&actions, STDIN_FILENO, STDERR_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    const int rc = spawn_child(pid_, argv, actions, POSIX_SPAWN_SETSID);
    ::close(out[1]);
    if (rc != 0) {
      pid_ = -1;
      close_all();
      throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
    }
  }

  ~pty_process() {
    if (pid_ > 0 && !reaped_) kill_and_reap(pid_);
    close_all();
  }

  pty_process(const pty_process&) = delete;
  pty_process& operator=(const pty_process&) = delete;

  pid_t pid() const { return pid_; }

  /// Types `text` (Ctrl-C is "\x03", Ctrl-D "\x04").
  void type(std::string_view text) {
    while (!text.empty()) {
      const auto n = ::write(master_, text.data(), text.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error("cannot type on the terminal");
      text.remove_prefix(static_cast<std::size_t>(n));
    }
  }

  /// Waits until `text` appears on the terminal after what earlier expects
  /// took; returns the screen up to and including it. Throws
  /// std::runtime_error (with the screen) when it does not within `limit`.
  std::string expect(std::string_view text, std::chrono::milliseconds limit = std::chrono::seconds(10)) {
    const auto until = clock::now() + limit;
    for (;;) {
      if (const auto at = screen_.find(text, seen_); at != std::string::npos) {
        seen_ = at + text.size();
        return screen_.substr(0, seen_);
      }
      if (clock::now() >= until || (reaped_ && master_ < 0))
        throw std::runtime_error("'" + std::string(text) + "' never appeared on the terminal; it shows:\n" + screen_ +
                                 "\nstdout: " + out_);
      pump(until);
    }
  }

  /// Waits up to `limit` for it to exit and for its stdout to end.
  bool wait(std::chrono::milliseconds limit) {
    const auto until = clock::now() + limit;
    while (!reap() || out_fd_ >= 0) {
      if (clock::now() >= until) return reaped_;
      pump(until);
    }
    pump(clock::now());  // the terminal's last words
    return true;
  }

  /// Exit status; 128 + N when killed by signal N; -1 while running.
  int exit_code() const {
    if (!reaped_) return -1;
    if (WIFEXITED(status_)) return WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) return 128 + WTERMSIG(status_);
    return -1;
  }

  /// Everything the terminal showed (stderr and the echo of what was typed), without carriage returns.
  const std::string& screen() const { return screen_; }
  const std::string& out() const { return out_; }

 private:
  bool reap() {
    if (reaped_ || pid_ <= 0) return reaped_;
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      reaped_ = true;
      status_ = st;
    }
    return reaped_;
  }

  void pump(clock::time_point until) {
    pollfd fds[2];
    int count = 0;
    if (master_ >= 0) fds[count++] = {master_, POLLIN, 0};
    if (out_fd_ >= 0) fds[count++] = {out_fd_, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock::now()).count();
    const int slice = static_cast<int>(std::max<long long>(0, std::min<long long>(left, 20)));
    if (count == 0) {
      ::poll(nullptr, 0, slice);
      reap();
      return;
    }
    if (::poll(fds, count, slice) <= 0) {
      reap();
      return;
    }
    for (int i = 0; i < count; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const bool is_out = fds[i].fd == out_fd_;
      char buffer[4096];
      const auto n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {  // EIO on the master once the terminal's last user has gone
        if (is_out) {
          ::close(out_fd_);
          out_fd_ = -1;
        } else if (reap()) {
          ::close(master_);
          master_ = -1;
        } else {
          ::poll(nullptr, 0, 5);  // the terminal is hung up until it exits: no busy loop
        }
        continue;
      }
      if (is_out) {
        out_.append(buffer, static_cast<std::size_t>(n));
      } else {
        for (ssize_t k = 0; k < n; ++k)
          if (buffer[k] != '\r') screen_ += buffer[k];
      }
    }
    reap();
  }

  void close_all() {
    if (master_ >= 0) ::close(master_);
    if (out_fd_ >= 0) ::close(out_fd_);
    master_ = out_fd_ = -1;
  }

  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  int master_ = -1;
  int out_fd_ = -1;
  std::string screen_;
  std::size_t seen_ = 0;
  std::string out_;
};

}  // namespace mcp::test
