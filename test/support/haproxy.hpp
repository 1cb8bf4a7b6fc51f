#pragma once
// An HAProxy of its own for a test: Debian's /usr/sbin/haproxy in front of
// servers on 127.0.0.1, balancing every HTTP request round robin with no
// stickiness, on a free port of 127.0.0.1, in a fresh temporary directory
// (its config and its runtime API socket), stopped and its directory removed
// however the test ends. Its log (one line per request, naming the server)
// goes to a file with no name; a child that outlives this process is killed
// (PR_SET_PDEATHSIG, so make it on the thread that runs the test).
//
//   if (!mcp::test::haproxy::available()) GTEST_SKIP() << "no haproxy";
//   mcp::test::haproxy proxy({port_a, port_b, port_c});
//   connect_to(proxy.url("/mcp"));
//   proxy.disable(0); ... proxy.enable(0);   // maintenance of server 0 (node1)
//   proxy.stats()[1].status == "DOWN"        // its health checks failed
//
// Round robin per request: with `option http-server-close` the connection to
// a server ends with each response, so the next request of the same client
// connection is balanced again (no `prefer-last-server`, no cookie). Servers
// are checked every 500 ms with an HTTP request (any answer is health; one
// failure takes a server out, one success brings it back); a request whose
// connection is refused goes to another server (`option redispatch`).
// Timeouts fit SSE: an hour for client and server, 2 s to connect.

#include "test_daemon.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace mcp::test {

class haproxy {
 public:
  static constexpr const char* program = "/usr/sbin/haproxy";

  /// Whether Debian's haproxy is installed (tests skip when not).
  static bool available() { return ::access(program, X_OK) == 0; }

  /// What the runtime API says of one server (`show stat`).
  struct server_stat {
    std::string name;    ///< node1, node2...
    std::string status;  ///< UP, DOWN, MAINT, "UP 1/2"...
    long current = 0;    ///< connections open to it now (scur)
    long total = 0;      ///< requests it was given so far (stot)
  };

  /// Starts it in front of `servers` (ports on 127.0.0.1, named node1,
  /// node2... in order) and waits (10 s at most) until it listens and every
  /// server is UP. Throws std::runtime_error, with its log, when it cannot.
  explicit haproxy(std::vector<int> servers) : servers_(std::move(servers)) { daemon_.start(); }

  int port() const { return daemon_.port(); }
  std::string url(const std::string& path = "/mcp") const {
    return "http://127.0.0.1:" + std::to_string(port()) + path;
  }
  /// The name HAProxy knows server `index` (from 0) by: node1, node2...
  static std::string server_name(std::size_t index) { return "node" + std::to_string(index + 1); }

  /// Sends `signal` (SIGSTOP / SIGCONT: a load balancer that is slow for a while).
  void kill(int signal) const { daemon_.kill(signal); }

  /// What it has logged: its start, and one line per request ("... nodes/node2 ...").
  std::string log() const { return daemon_.log(); }

  /// One command of the runtime API (the stats socket, level admin); its answer.
  std::string command(const std::string& line) const {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) throw std::runtime_error("socket failed");
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const auto path = socket_path();
    std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) < 0) {
      const int error = errno;
      ::close(fd);
      throw std::runtime_error("cannot reach haproxy's runtime API: " + std::string(std::strerror(error)));
    }
    timeval limit{5, 0};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    const std::string text = line + "\n";
    if (::send(fd, text.data(), text.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(text.size())) {
      ::close(fd);
      throw std::runtime_error("cannot write to haproxy's runtime API");
    }
    std::string answer;  // the non-interactive API answers, then closes
    char buffer[4096];
    for (;;) {
      const auto n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      answer.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    return answer;
  }

  /// The servers, in order (node1 first).
  std::vector<server_stat> stats() const {
    const auto csv = command("show stat");
    std::istringstream lines(csv);
    std::string line;
    std::vector<std::string> columns;
    std::vector<server_stat> result(servers_.size());
    while (std::getline(lines, line)) {
      if (line.starts_with("# ")) {
        columns = split(line.substr(2));
        continue;
      }
      const auto fields = split(line);
      if (fields.size() < 2 || fields[0] != "nodes" || !fields[1].starts_with("node")) continue;
      server_stat stat;
      for (std::size_t i = 0; i < columns.size() && i < fields.size(); ++i) {
        if (columns[i] == "svname") stat.name = fields[i];
        if (columns[i] == "status") stat.status = fields[i];
        if (columns[i] == "scur") stat.current = std::atol(fields[i].c_str());
        if (columns[i] == "stot") stat.total = std::atol(fields[i].c_str());
      }
      const auto index = std::strtoul(stat.name.c_str() + 4, nullptr, 10);
      if (index >= 1 && index <= result.size()) result[index - 1] = stat;
    }
    return result;
  }

  /// Puts server `index` in maintenance: no new request goes to it (those
  /// it serves go on).
  void disable(std::size_t index) const { command("disable server nodes/" + server_name(index)); }
  /// Takes it out of maintenance (its health checks decide again).
  void enable(std::size_t index) const { command("enable server nodes/" + server_name(index)); }

  /// Waits up to `limit` for server `index`'s status to begin with `status`
  /// ("UP", "DOWN"). True when it did.
  bool wait_for_status(std::size_t index, const std::string& status, std::chrono::milliseconds limit) const {
    const auto until = std::chrono::steady_clock::now() + limit;
    for (;;) {
      const auto all = stats();
      if (index < all.size() && all[index].status.starts_with(status)) return true;
      if (std::chrono::steady_clock::now() >= until) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }

 private:
  static std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ',')) fields.push_back(field);
    return fields;
  }

  std::string socket_path() const { return daemon_.directory() + "/admin.sock"; }

  static bool accepts_connections(int port) {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    ::close(fd);
    return ok;
  }

  std::string config() const {
    std::ostringstream c;
    c << "global\n"
         "  maxconn 2000\n"
         "  stats socket "
      << socket_path()
      << " mode 600 level admin\n"
         "  log stderr format raw local0 info\n"
         "\n"
         "defaults\n"
         "  mode http\n"
         "  log global\n"
         "  option httplog\n"
         // A request is logged once its answer begins: an SSE stream too.
         "  option logasap\n"
         "  option dontlognull\n"
         // The server connection ends with each response: every request of a
         // keep-alive client connection is balanced on its own.
         "  option http-server-close\n"
         // A refused connection (a node just killed) is tried on another node.
         "  option redispatch 1\n"
         "  retries 3\n"
         "  timeout connect 2s\n"
         // SSE streams stay open for long; the server sends a comment every 15 s.
         "  timeout client 1h\n"
         "  timeout server 1h\n"
         "  timeout http-request 10s\n"
         "  timeout http-keep-alive 10s\n"
         "  timeout check 1s\n"
         "\n"
         "frontend mcp\n"
         "  bind 127.0.0.1:"
      << port()
      << "\n"
         "  default_backend nodes\n"
         "\n"
         "backend nodes\n"
         "  balance roundrobin\n"
         // Any HTTP answer within `timeout check` is health: a node that is
         // stuck (or gone) is out after one check, back after one.
         "  option httpchk\n"
         "  http-check send meth GET uri /mcp ver HTTP/1.1 hdr Host 127.0.0.1\n"
         "  http-check expect rstatus ^[2-5]\n"
         "  default-server check inter 500ms fall 1 rise 1\n";
    for (std::size_t i = 0; i < servers_.size(); ++i)
      c << "  server " << server_name(i) << " 127.0.0.1:" << servers_[i] << "\n";
    return c.str();
  }

  // Its command line, once its configuration (for port()) is written.
  std::vector<std::string> arguments() const {
    const auto file = daemon_.directory() + "/haproxy.cfg";
    std::error_code ignored;
    std::filesystem::remove(socket_path(), ignored);  // a failed attempt's
    std::ofstream out(file, std::ios::trunc);
    out << config();
    if (!out) throw std::runtime_error("cannot write " + file);
    return {program, "-f", file, "-db"};
  }

  // Listening, with every server UP.
  bool ready() const {
    if (!accepts_connections(port()) || !std::filesystem::exists(socket_path())) return false;
    try {
      for (const auto& server : stats())
        if (!server.status.starts_with("UP")) return false;
      return true;
    } catch (const std::exception&) {
      return false;
    }
  }

  std::vector<int> servers_;
  test_daemon daemon_{{"haproxy", [this] { return arguments(); }, [this](std::string_view) { return ready(); },
                       "ready (listening, every server UP)"}};
};

}  // namespace mcp::test
