#pragma once
// A program run as a child process with its stdout and stderr captured, every
// wait bounded: for tests of command-line tools. The child is SIGKILLed and
// reaped however the test ends.
//
//   auto r = mcp::test::run_command({"build/bin/caduceus", "--help"});
//   EXPECT_EQ(r.exit_code, 0);

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "spawn_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

/// How a finished command went.
struct command_result {
  int exit_code = -1;      ///< the exit status, 128 + N when killed by signal N, -1 when still running
  std::string out;         ///< all of its stdout
  std::string err;         ///< all of its stderr
  bool finished = false;   ///< false: the deadline passed (it was killed)
};

class child_process {
 public:
  using clock = std::chrono::steady_clock;

  /// Starts argv[0] (a path) with stdin from /dev/null and SIGINT, SIGTERM and
  /// SIGPIPE at their defaults. Throws std::runtime_error when it cannot.
  explicit child_process(std::vector<std::string> argv) {
    if (argv.empty()) throw std::runtime_error("child_process: no program");
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) < 0) throw std::runtime_error("pipe failed");
    if (::pipe2(err, O_CLOEXEC) < 0) {
      ::close(out[0]);
      ::close(out[1]);
      throw std::runtime_error("pipe failed");
    }
    out_fd_ = out[0];
    err_fd_ = err[0];

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    const int rc = spawn_child(pid_, argv, actions);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
      pid_ = -1;
      close_pipes();
      throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
    }
  }

  ~child_process() {
    if (pid_ > 0 && !reaped_) kill_and_reap(pid_);
    close_pipes();
  }

  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  pid_t pid() const { return pid_; }
  void signal(int number) {
    if (pid_ > 0 && !reaped_) ::kill(pid_, number);
  }

  /// The next line of its stdout (without the newline). Throws
  /// std::runtime_error when none comes within `limit`.
  std::string read_line(std::chrono::milliseconds limit) {
    const auto until = clock::now() + limit;
    for (;;) {
      if (const auto end = out_.find('\n', consumed_); end != std::string::npos) {
        std::string line = out_.substr(consumed_, end - consumed_);
        consumed_ = end + 1;
        return line;
      }
      if (out_fd_ < 0) throw std::runtime_error("stdout ended before a whole line (got '" + out_.substr(consumed_) + "')");
      if (clock::now() >= until)
        throw std::runtime_error("no line on stdout within the deadline (got '" + out_.substr(consumed_) + "')");
      pump(until);
    }
  }

  /// Waits up to `limit` for it to exit and its pipes to end. True when it did.
  bool wait(std::chrono::milliseconds limit) {
    const auto until = clock::now() + limit;
    while (!reap() || out_fd_ >= 0 || err_fd_ >= 0) {
      if (clock::now() >= until) {
        // Exited, but something it started holds the pipes: what we have is all.
        if (reaped_) close_pipes();
        return reaped_;
      }
      pump(until);
    }
    return true;
  }

  /// Exit status; 128 + N when killed by signal N; -1 while running.
  int exit_code() const {
    if (!reaped_) return -1;
    if (WIFEXITED(status_)) return WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) return 128 + WTERMSIG(status_);
    return -1;
  }

  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

  /// SIGTERM, then SIGKILL if it has not exited within `grace`.
  void stop(std::chrono::milliseconds grace) {
    if (pid_ <= 0 || reaped_) return;
    signal(SIGTERM);
    if (!wait(grace)) {
      signal(SIGKILL);
      wait(std::chrono::milliseconds(5000));
    }
  }

 private:
  bool reap() {
    if (reaped_ || pid_ <= 0) return reaped_;
    int st = 0;
    const pid_t r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      status_ = st;
    }
    return reaped_;
  }

  // Reads what the pipes have within a short slice of the time left.
  void pump(clock::time_point until) {
    pollfd fds[2];
    int count = 0;
    if (out_fd_ >= 0) fds[count++] = {out_fd_, POLLIN, 0};
    if (err_fd_ >= 0) fds[count++] = {err_fd_, POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock::now()).count();
    const int slice = static_cast<int>(std::max<long long>(0, std::min<long long>(left, 20)));
    if (count == 0) {
      ::poll(nullptr, 0, slice);  // only the exit to wait for
      return;
    }
    const int ready = ::poll(fds, count, slice);
    if (ready <= 0) return;
    for (int i = 0; i < count; ++i) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const bool is_out = fds[i].fd == out_fd_;
      char buffer[4096];
      const auto n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        ::close(fds[i].fd);
        (is_out ? out_fd_ : err_fd_) = -1;
        continue;
      }
      (is_out ? out_ : err_).append(buffer, static_cast<std::size_t>(n));
    }
  }

  void close_pipes() {
    if (out_fd_ >= 0) ::close(out_fd_);
    if (err_fd_ >= 0) ::close(err_fd_);
    out_fd_ = err_fd_ = -1;
  }

  pid_t pid_ = -1;
  bool reaped_ = false;
  int status_ = 0;
  int out_fd_ = -1;
  int err_fd_ = -1;
  std::string out_;
  std::string err_;
  std::size_t consumed_ = 0;  // of out_, by read_line
};

/// Runs a command to its end, or kills it when `limit` passes.
inline command_result run_command(std::vector<std::string> argv,
                                  std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  child_process child(std::move(argv));
  command_result result;
  result.finished = child.wait(limit);
  if (!result.finished) {
    child.signal(SIGKILL);
    child.wait(std::chrono::seconds(5));
  }
  result.exit_code = child.exit_code();
  result.out = child.out();
  result.err = child.err();
  return result;
}

}  // namespace mcp::test
