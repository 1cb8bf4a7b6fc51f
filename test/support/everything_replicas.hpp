#pragma once
// Replicas of everything-server behind HAProxy, sharing one redis-server, as
// docs/scale-out.md runs them: each node is
//   everything-server --http 127.0.0.1:0 --redis redis://127.0.0.1:PORT
//                     --threads 2 --request-state-key-file KEY
// with one key file for all. Every process is a child of the test (killed
// with it: PR_SET_PDEATHSIG), stopped however the test ends. Needs
// CADUCEUS_BIN_DIR. Tests skip when redis-server or haproxy is missing:
//
//   if (const auto why = everything_replicas::missing(); !why.empty()) GTEST_SKIP() << why;
//   everything_replicas cluster(3);
//   connect_to(cluster.url());           // through HAProxy
//   cluster.node(0).kill(SIGKILL);       // crash node1
//   cluster.redis.kill(SIGSTOP);         // freeze Redis

#include "haproxy.hpp"
#include "daemon_child.hpp"
#include "log_file.hpp"
#include "redis_server.hpp"
#include "test_program.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace mcp::test {

/// A server program run in the background: its stdout and stderr each in a
/// file with no name, its first stdout line (the URL it serves) awaited.
class server_process {
 public:
  /// Starts `args` (args[0] a path) and waits up to 10 s for the first line
  /// of its stdout. Throws std::runtime_error, with its output, when none comes.
  explicit server_process(std::vector<std::string> args) {
    out_fd_ = open_log();
    err_fd_ = open_log();
    pid_ = start_daemon_child(std::move(args), out_fd_, err_fd_);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (;;) {
      const auto out = stdout_text();
      if (const auto end = out.find('\n'); end != std::string::npos) {
        url_ = out.substr(0, end);
        break;
      }
      if (!running() || std::chrono::steady_clock::now() >= until) {
        const auto what = "no URL from " + args[0] + " within 10 s; stdout: " + out + "; stderr: " + stderr_text();
        stop();
        ::close(out_fd_);
        ::close(err_fd_);
        throw std::runtime_error(what);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const auto colon = url_.rfind(':');
    port_ = colon == std::string::npos ? 0 : std::atoi(url_.c_str() + colon + 1);
  }

  ~server_process() {
    stop();
    ::close(out_fd_);
    ::close(err_fd_);
  }

  server_process(const server_process&) = delete;
  server_process& operator=(const server_process&) = delete;

  /// The first line it printed: its endpoint URL.
  const std::string& url() const { return url_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }

  /// Sends `signal`: SIGKILL to crash it, SIGSTOP / SIGCONT to freeze it.
  void kill(int signal) {
    if (pid_ > 0) ::kill(pid_, signal);
  }

  /// False once it has exited (it is then reaped).
  bool running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) != pid_) return true;
    pid_ = -1;
    status_ = status;
    return false;
  }

  /// How it ended: 128 + N when killed by signal N, -1 while it runs.
  int exit_code() {
    if (running()) return -1;
    if (WIFEXITED(status_)) return WEXITSTATUS(status_);
    if (WIFSIGNALED(status_)) return 128 + WTERMSIG(status_);
    return -1;
  }

  std::string stdout_text() const { return read_log(out_fd_); }
  std::string stderr_text() const { return read_log(err_fd_); }

  /// SIGTERM (after SIGCONT, should it be frozen), then SIGKILL after `grace`.
  void stop(std::chrono::milliseconds grace = std::chrono::seconds(3)) {
    if (!running()) return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGTERM);
    const auto until = std::chrono::steady_clock::now() + grace;
    while (running() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!running()) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    status_ = status;
    pid_ = -1;
  }

 private:
  static int open_log() {
    char pattern[] = "/tmp/caduceus-server-log-XXXXXX";
    const int fd = ::mkostemp(pattern, O_CLOEXEC | O_APPEND);
    if (fd < 0) throw std::runtime_error(std::string("mkostemp: ") + std::strerror(errno));
    ::unlink(pattern);
    return fd;
  }

  int out_fd_ = -1;
  int err_fd_ = -1;
  pid_t pid_ = -1;
  int status_ = 0;
  std::string url_;
  int port_ = 0;
};

#ifdef CADUCEUS_BIN_DIR
/// Nodes of everything-server sharing `redis`, and HAProxy in front of them.
class everything_replicas {
 public:
  /// Why the cluster cannot run here ("" when it can).
  static std::string missing() {
    if (!redis_server::available()) return "no redis-server (Debian package redis-server)";
    if (!haproxy::available()) return "no haproxy (Debian package haproxy)";
    return "";
  }

  static std::string program() { return test_program("everything-server"); }

  /// Starts Redis, `count` nodes and HAProxy. A node is `server` (default:
  /// everything-server; {caduceus, "serve-demo"} works too) followed by the
  /// cluster's arguments.
  explicit everything_replicas(std::size_t count, std::vector<std::string> server = {}) : server_(std::move(server)) {
    if (server_.empty()) server_.push_back(program());
    char pattern[] = "/tmp/caduceus-replicas-XXXXXX";
    if (!::mkdtemp(pattern)) throw std::runtime_error(std::string("mkdtemp: ") + std::strerror(errno));
    dir_ = pattern;
    {
      std::ofstream key(key_file());  // 32 bytes, in hex: the requestState key every node shares
      key << "8f1c2a7b3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8\n";
    }
    for (std::size_t i = 0; i < count; ++i) nodes_.push_back(std::make_unique<server_process>(node_command()));
    std::vector<int> ports;
    for (const auto& node : nodes_) ports.push_back(node->port());
    proxy = std::make_unique<haproxy>(ports);
  }

  ~everything_replicas() {
    proxy.reset();
    for (auto& node : nodes_) node->stop();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }

  everything_replicas(const everything_replicas&) = delete;
  everything_replicas& operator=(const everything_replicas&) = delete;

  /// The MCP endpoint through HAProxy.
  std::string url() const { return proxy->url("/mcp"); }
  server_process& node(std::size_t index) { return *nodes_.at(index); }
  std::size_t size() const { return nodes_.size(); }
  std::string key_file() const { return dir_ + "/request-state.key"; }

  /// The command line of a node.
  std::vector<std::string> node_command() const {
    auto args = server_;
    for (std::string a : {"--http", "127.0.0.1:0", "--redis"}) args.push_back(a);
    args.push_back(redis.url());
    for (std::string a : {"--threads", "2", "--request-state-key-file"}) args.push_back(a);
    args.push_back(key_file());
    return args;
  }

  /// Every node's stderr, headed by its name (for failure messages).
  std::string logs() const {
    std::string text;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      text += "--- " + haproxy::server_name(i) + " (" + nodes_[i]->url() + ") stderr:\n" + nodes_[i]->stderr_text();
    text += "--- haproxy:\n" + (proxy ? proxy->log() : std::string());
    return text;
  }

  redis_server redis;

 private:
  std::vector<std::string> server_;
  std::string dir_;
  std::vector<std::unique_ptr<server_process>> nodes_;

 public:
  std::unique_ptr<haproxy> proxy;
};
#endif

}  // namespace mcp::test
