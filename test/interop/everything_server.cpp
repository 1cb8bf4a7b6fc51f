#include "everything_server.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace mcp::test {

namespace {

using namespace std::chrono_literals;
using clock = std::chrono::steady_clock;

const std::string everything_dist =
    std::string(CADUCEUS_INTEROP_DIR) + "/node_modules/@modelcontextprotocol/server-everything/dist";

// What lib/listen-on-loopback.mjs writes once the server listens.
constexpr std::string_view listening_line = "caduceus-interop: listening on 127.0.0.1:";

/// The port of the listening line in `output`, or 0 while there is none.
std::uint16_t listening_port(const std::string& output) {
  const auto at = output.find(listening_line);
  if (at == std::string::npos) return 0;
  const auto end = output.find('\n', at);
  if (end == std::string::npos) return 0;  // the line is still being written
  const auto digits = output.substr(at + listening_line.size(), end - at - listening_line.size());
  return static_cast<std::uint16_t>(std::strtoul(digits.c_str(), nullptr, 10));
}

/// Whether child `pid` exits within `limit`. It is left unreaped: while it
/// is a zombie its process group id cannot be reused.
bool exits_within(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = clock::now() + limit;
  for (;;) {
    siginfo_t info{};
    if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) < 0) return true;
    if (info.si_pid == pid) return true;
    if (clock::now() >= until) return false;
    std::this_thread::sleep_for(10ms);
  }
}

}  // namespace

std::string to_string(everything_transport transport) {
  switch (transport) {
    case everything_transport::stdio: return "stdio";
    case everything_transport::streamable_http: return "streamable_http";
    case everything_transport::legacy_sse: return "legacy_sse";
  }
  return "unknown";
}

std::string node_program() { return CADUCEUS_NODE_PROGRAM; }

std::string everything_script() { return everything_dist + "/index.js"; }

std::string everything_docs() { return everything_dist + "/docs"; }

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

everything_http_server::everything_http_server(everything_transport transport,
                                               std::chrono::milliseconds start_limit)
    : transport_(transport) {
  if (transport == everything_transport::stdio)
    throw std::invalid_argument("everything_http_server: stdio is not an HTTP transport");

  // The server's output goes to a file with no name (nothing is left behind
  // however this process ends), written by the child with O_APPEND and read
  // here with pread. The child gets copies without O_CLOEXEC from dup2.
  char log_pattern[] = "/tmp/caduceus-everything-XXXXXX";
  log_fd_ = ::mkostemp(log_pattern, O_CLOEXEC | O_APPEND);
  if (log_fd_ < 0) throw std::runtime_error(std::string("mkostemp: ") + std::strerror(errno));
  ::unlink(log_pattern);

  // Everything the child needs is built before fork: after it, only
  // async-signal-safe calls.
  std::vector<std::string> args{node_program(), "--import",
                                std::string(CADUCEUS_INTEROP_DIR) + "/lib/listen-on-loopback.mjs",
                                everything_script(),
                                transport == everything_transport::legacy_sse ? "sse" : "streamableHttp"};
  std::vector<std::string> env{"PORT=0", std::string(marker_variable) + "=" + marker_value};
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    if (!entry.starts_with("PORT=") && !entry.starts_with(std::string(marker_variable) + "="))
      env.emplace_back(entry);
  }
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ < 0) {
    const int error = errno;
    stop();
    throw std::runtime_error(std::string("fork: ") + std::strerror(error));
  }
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent is already gone
    ::setpgid(0, 0);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(log_fd_, STDOUT_FILENO);
    ::dup2(log_fd_, STDERR_FILENO);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // also here: the group must exist before we might signal it

  const auto until = clock::now() + start_limit;
  for (;;) {
    if ((port_ = listening_port(output())) != 0) return;
    std::string failure;
    if (exits_within(pid_, 0ms)) {
      failure = "exited before it listened";
    } else if (clock::now() >= until) {
      failure = "did not listen within " + std::to_string(start_limit.count()) + " ms";
    }
    if (!failure.empty()) {
      const auto log = output();
      stop();
      throw std::runtime_error("server-everything " + to_string(transport) + " " + failure + "; its output:\n" + log);
    }
    std::this_thread::sleep_for(20ms);
  }
}

everything_http_server::~everything_http_server() { stop(); }

std::string everything_http_server::url() const {
  const char* path = transport_ == everything_transport::legacy_sse ? "/sse" : "/mcp";
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::string everything_http_server::output() const {
  std::string text;
  char buffer[4096];
  for (;;) {
    const auto n = ::pread(log_fd_, buffer, sizeof buffer, static_cast<off_t>(text.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return text;
    text.append(buffer, static_cast<std::size_t>(n));
  }
}

bool everything_http_server::running() const { return pid_ > 0 && !exits_within(pid_, 0ms); }

void everything_http_server::stop() noexcept {
  if (pid_ > 0) {
    ::kill(-pid_, SIGTERM);
    exits_within(pid_, 2s);
    ::kill(-pid_, SIGKILL);  // a server that ignored SIGTERM, and anything it started
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  if (log_fd_ >= 0) {
    ::close(log_fd_);
    log_fd_ = -1;
  }
}

}  // namespace mcp::test
