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

#include "test_daemon.hpp"

#include <fstream>
#include <string>
#include <vector>

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
    std::ofstream(daemon_.directory() + "/prometheus.yml")
        << "global:\n"
           "  scrape_interval: 1s\n"
           "  evaluation_interval: 1s\n"
           "scrape_configs:\n"
           "  - job_name: "
        << job << "\n    metrics_path: " << metrics_path << "\n    static_configs:\n      - targets: ['" << target
        << "']\n";
    daemon_.start();
  }

  /// Where its HTTP API listens, on 127.0.0.1.
  int port() const { return daemon_.port(); }
  /// What it has logged.
  std::string log() const { return daemon_.log(); }

 private:
  std::vector<std::string> arguments() const {
    const auto& dir = daemon_.directory();
    return {program, "--config.file=" + dir + "/prometheus.yml", "--storage.tsdb.path=" + dir + "/data",
            "--web.listen-address=127.0.0.1:" + std::to_string(port())};
  }

  test_daemon daemon_{{"prometheus", [this] { return arguments(); },
                       [](std::string_view log) {
                         return log.find("Server is ready to receive web requests") != log.npos;
                       },
                       "ready", std::chrono::seconds(30)}};
};

}  // namespace mcp::test
