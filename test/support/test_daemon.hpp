#pragma once
// A server program a test runs beside it (redis-server, haproxy, prometheus):
// a fresh temporary directory, a log file with no name, a free port of
// 127.0.0.1 (another is tried when some process takes it first), started
// until it is ready, and killed, with its directory removed, however the test
// ends. A child that outlives this process is killed (PR_SET_PDEATHSIG, so
// make it on the thread that runs the test).

#include "daemon_child.hpp"
#include "free_port.hpp"
#include "log_file.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

class test_daemon {
 public:
  struct launch {
    std::string name;  ///< for directories and messages: "redis-server"
    /// Its command line (program first) for port() and directory(); may
    /// write its configuration there first.
    std::function<std::vector<std::string>()> arguments;
    /// Whether it is ready, given what it logged since it started.
    std::function<bool(std::string_view log)> ready;
    std::string ready_means = "ready";  ///< what `ready` checks, for the message when it is not
    std::chrono::seconds ready_within{10};
  };

  /// Makes its directory and log; start() runs it.
  explicit test_daemon(launch how) : how_(std::move(how)) {
    auto pattern = "/tmp/caduceus-" + how_.name + "-XXXXXX";
    if (!::mkdtemp(pattern.data())) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
    dir_ = pattern;
    auto log_pattern = "/tmp/caduceus-" + how_.name + "-log-XXXXXX";
    log_fd_ = ::mkostemp(log_pattern.data(), O_CLOEXEC | O_APPEND);
    if (log_fd_ < 0) throw std::runtime_error(std::string("mkostemp: ") + std::strerror(errno));
    ::unlink(log_pattern.c_str());
  }

  ~test_daemon() {
    stop();
    if (log_fd_ >= 0) ::close(log_fd_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  test_daemon(const test_daemon&) = delete;
  test_daemon& operator=(const test_daemon&) = delete;

  /// Starts it on a free port and waits until it is ready. Throws
  /// std::runtime_error, with its log, when it cannot.
  void start() {
    // A port free a moment ago may be taken before the program binds it: a few tries.
    for (int attempt = 1;; ++attempt) {
      port_ = free_port();
      if (run(attempt == 5)) return;
    }
  }

  /// Kills it (if it runs) and starts it again on the same port and directory.
  void restart() {
    stop();
    // The port was ours a moment ago; it may still be settling.
    for (int attempt = 1;; ++attempt) {
      if (run(attempt == 5)) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  /// Kills it and waits for its end (nothing when it does not run).
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);  // works on a stopped process too
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  /// Sends `signal`: SIGKILL to crash it, SIGSTOP / SIGCONT to freeze it.
  void kill(int signal) const {
    if (pid_ > 0) ::kill(pid_, signal);
  }

  int port() const { return port_; }
  const std::string& directory() const { return dir_; }
  /// What it has logged (every run of it).
  std::string log() const { return read_log(log_fd_); }

 private:
  // Runs it and waits for it to be ready. False when it exited first (its
  // port was taken), unless `last`: then it throws.
  bool run(bool last) {
    const auto log_start = log().size();
    pid_ = start_daemon_child(how_.arguments(), log_fd_, log_fd_);
    const auto until = std::chrono::steady_clock::now() + how_.ready_within;
    for (;;) {
      if (how_.ready(std::string_view(log()).substr(log_start))) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        if (!last) return false;
        throw std::runtime_error(how_.name + " exited before it was ready; its log:\n" + log().substr(log_start));
      }
      if (std::chrono::steady_clock::now() >= until) {
        stop();
        throw std::runtime_error(how_.name + " was not " + how_.ready_means + " within " +
                                 std::to_string(how_.ready_within.count()) + " s; its log:\n" + log().substr(log_start));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }

  launch how_;
  std::string dir_;
  int log_fd_ = -1;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace mcp::test
