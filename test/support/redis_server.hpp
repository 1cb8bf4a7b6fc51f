#pragma once
// A redis-server of its own for a test: Debian's /usr/bin/redis-server on
// 127.0.0.1, a free port, a fresh temporary directory (append-only file on,
// snapshots off), stopped and its directory removed however the test ends.
// Its log goes to a file with no name; a child that outlives this process
// is killed (PR_SET_PDEATHSIG, so make it on the thread that runs the test).
//
//   if (!mcp::test::redis_server::available()) GTEST_SKIP() << "no redis-server";
//   mcp::test::redis_server redis;
//   connect_to(redis.url());
//   redis.kill(SIGSTOP); ... redis.kill(SIGCONT);
//   redis.restart();  // same port, same data directory

#include "daemon_child.hpp"
#include "free_port.hpp"
#include "log_file.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

class redis_server {
 public:
  static constexpr const char* program = "/usr/bin/redis-server";

  /// Whether Debian's redis-server is installed (tests skip when not).
  static bool available() { return ::access(program, X_OK) == 0; }

  /// Starts it, with `extra` arguments ("--requirepass", "secret"). Throws
  /// std::runtime_error, with its log, when it is not ready within 10 s.
  explicit redis_server(std::vector<std::string> extra = {}) : extra_(std::move(extra)) {
    char pattern[] = "/tmp/caduceus-redis-XXXXXX";
    if (!::mkdtemp(pattern)) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
    dir_ = pattern;
    log_fd_ = open_log();
    // A port free a moment ago may be taken before Redis binds it: a few tries.
    for (int attempt = 1;; ++attempt) {
      port_ = free_port();
      if (start(attempt == 5)) break;
    }
  }

  ~redis_server() {
    stop();
    if (log_fd_ >= 0) ::close(log_fd_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  redis_server(const redis_server&) = delete;
  redis_server& operator=(const redis_server&) = delete;

  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
  const std::string& directory() const { return dir_; }

  /// Sends `signal`: SIGKILL to crash it, SIGSTOP / SIGCONT to freeze it.
  void kill(int signal) {
    if (pid_ > 0) ::kill(pid_, signal);
  }

  /// Kills it (if it runs) and starts it again on the same port and directory.
  void restart() {
    stop();
    // The port was ours a moment ago; it may still be settling.
    for (int attempt = 1;; ++attempt) {
      if (start(attempt == 5)) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  /// What it has logged (every run of it).
  std::string log() const { return read_log(log_fd_); }

 private:
  static int open_log() {
    char pattern[] = "/tmp/caduceus-redis-log-XXXXXX";
    const int fd = ::mkostemp(pattern, O_CLOEXEC | O_APPEND);
    if (fd < 0) throw std::runtime_error(std::string("mkostemp: ") + std::strerror(errno));
    ::unlink(pattern);
    return fd;
  }

  // Starts redis-server and waits for it to be ready. False when it exited
  // first (its port was taken), unless `last`: then it throws.
  bool start(bool last) {
    std::vector<std::string> args{program, "--port", std::to_string(port_), "--bind", "127.0.0.1", "--dir", dir_,
                                  "--save", "", "--appendonly", "yes", "--daemonize", "no"};
    args.insert(args.end(), extra_.begin(), extra_.end());
    const auto log_start = log().size();

    pid_ = start_daemon_child(std::move(args), log_fd_, log_fd_);

    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
      if (log().find("Ready to accept connections", log_start) != std::string::npos) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        if (!last) return false;
        throw std::runtime_error("redis-server exited before it was ready; its log:\n" + log().substr(log_start));
      }
      if (std::chrono::steady_clock::now() >= until) {
        stop();
        throw std::runtime_error("redis-server was not ready within 10 s; its log:\n" + log().substr(log_start));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);  // works on a stopped process too
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  std::vector<std::string> extra_;
  std::string dir_;
  int log_fd_ = -1;
  int port_ = 0;
  pid_t pid_ = -1;
};

/// A test with a redis-server of its own, started for each test (its
/// `server`); skipped where redis-server is not installed.
class redis_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!redis_server::available()) GTEST_SKIP() << redis_server::program << " is not installed";
    server.emplace();
  }
  std::optional<redis_server> server;
};

}  // namespace mcp::test
