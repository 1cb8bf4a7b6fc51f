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

#include "test_daemon.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

namespace mcp::test {

class redis_server {
 public:
  static constexpr const char* program = "/usr/bin/redis-server";

  /// Whether Debian's redis-server is installed (tests skip when not).
  static bool available() { return ::access(program, X_OK) == 0; }

  /// Starts it, with `extra` arguments ("--requirepass", "secret"). Throws
  /// std::runtime_error, with its log, when it is not ready within 10 s.
  explicit redis_server(std::vector<std::string> extra = {}) : extra_(std::move(extra)) { daemon_.start(); }

  int port() const { return daemon_.port(); }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port()); }
  const std::string& directory() const { return daemon_.directory(); }

  /// Sends `signal`: SIGKILL to crash it, SIGSTOP / SIGCONT to freeze it.
  void kill(int signal) { daemon_.kill(signal); }

  /// Kills it (if it runs) and starts it again on the same port and directory.
  void restart() { daemon_.restart(); }

  /// What it has logged (every run of it).
  std::string log() const { return daemon_.log(); }

 private:
  std::vector<std::string> arguments() const {
    std::vector<std::string> args{program, "--port", std::to_string(port()), "--bind", "127.0.0.1", "--dir",
                                  directory(), "--save", "", "--appendonly", "yes", "--daemonize", "no"};
    args.insert(args.end(), extra_.begin(), extra_.end());
    return args;
  }

  std::vector<std::string> extra_;
  test_daemon daemon_{{"redis", [this] { return arguments(); },
                       [](std::string_view log) { return log.find("Ready to accept connections") != log.npos; }}};
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
