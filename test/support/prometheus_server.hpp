#pragma once
// A Prometheus server of its own for a test: Debian's /usr/bin/prometheus on
// 127.0.0.1, a free port, a fresh temporary directory (its configuration and
// its database), scraping one target every second; stopped and its
// directory removed however the test ends. A child that outlives this
// process is killed (PR_SET_PDEATHSIG, so make it on the thread that runs
// the test).
//
//   if (!mcp::test::prometheus_server::available()) GTEST_SKIP() << "no prometheus";
//   mcp::test::prometheus_server prometheus("127.0.0.1:" + std::to_string(port));
//   ... GET prometheus.port() /api/v1/query?query=up

#include "daemon_child.hpp"
#include "free_port.hpp"
#include "log_file.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

class prometheus_server {
 public:
  static constexpr const char* program = "/usr/bin/prometheus";
  static constexpr const char* job = "caduceus";

  /// Whether Debian's prometheus is installed (tests skip when not).
  static bool available() { return ::access(program, X_OK) == 0; }

  /// Starts it scraping `target` ("127.0.0.1:PORT") at `metrics_path` every
  /// second, as job "caduceus". Throws std::runtime_error, with its log, when
  /// it is not ready within 30 s.
  explicit prometheus_server(const std::string& target, const std::string& metrics_path = "/metrics") {
    char pattern[] = "/tmp/caduceus-prometheus-XXXXXX";
    if (!::mkdtemp(pattern)) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
    dir_ = pattern;
    std::ofstream(dir_ + "/prometheus.yml") << "global:\n"
                                               "  scrape_interval: 1s\n"
                                               "  evaluation_interval: 1s\n"
                                               "scrape_configs:\n"
                                               "  - job_name: "
                                            << job << "\n    metrics_path: " << metrics_path
                                            << "\n    static_configs:\n      - targets: ['" << target << "']\n";
    log_fd_ = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC | O_APPEND, 0600);
    if (log_fd_ < 0) throw std::runtime_error(std::string("open: ") + std::strerror(errno));
    // A port free a moment ago may be taken before Prometheus binds it: a few tries.
    for (int attempt = 1;; ++attempt) {
      port_ = free_port();
      if (start(attempt == 5)) break;
    }
  }

  ~prometheus_server() {
    stop();
    if (log_fd_ >= 0) ::close(log_fd_);
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  prometheus_server(const prometheus_server&) = delete;
  prometheus_server& operator=(const prometheus_server&) = delete;

  /// Where its HTTP API listens, on 127.0.0.1.
  int port() const { return port_; }
  /// What it has logged.
  std::string log() const { return read_log(log_fd_); }

 private:
  // Starts prometheus and waits until it is ready. False when it exited
  // first (its port was taken), unless `last`: then it throws.
  bool start(bool last) {
    std::vector<std::string> args{program,
                                  "--config.file=" + dir_ + "/prometheus.yml",
                                  "--storage.tsdb.path=" + dir_ + "/data",
                                  "--web.listen-address=127.0.0.1:" + std::to_string(port_)};
    const auto log_start = log().size();
    pid_ = start_daemon_child(std::move(args), log_fd_, log_fd_);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      if (log().find("Server is ready to receive web requests", log_start) != std::string::npos) return true;
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        if (!last) return false;
        throw std::runtime_error("prometheus exited before it was ready; its log:\n" + log().substr(log_start));
      }
      if (std::chrono::steady_clock::now() >= until) {
        stop();
        throw std::runtime_error("prometheus was not ready within 30 s; its log:\n" + log().substr(log_start));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  std::string dir_;
  int log_fd_ = -1;
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace mcp::test
