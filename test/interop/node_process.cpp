#include "node_process.hpp"

#include "log_file.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace mcp::test {

namespace {

using namespace std::chrono_literals;
using clock = std::chrono::steady_clock;

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

std::string_view name_of(std::string_view entry) { return entry.substr(0, entry.find('=')); }

}  // namespace

std::string node_program() { return CADUCEUS_NODE_PROGRAM; }

background_process::background_process(std::string program, std::vector<std::string> args,
                                       std::vector<std::string> environment) {
  // The output goes to a file with no name (nothing is left behind however
  // this process ends), written by the child with O_APPEND and read here
  // with pread. The child gets copies without O_CLOEXEC from dup2.
  char log_pattern[] = "/tmp/caduceus-node-XXXXXX";
  log_fd_ = ::mkostemp(log_pattern, O_CLOEXEC | O_APPEND);
  if (log_fd_ < 0) throw std::runtime_error(std::string("mkostemp: ") + std::strerror(errno));
  ::unlink(log_pattern);

  // Everything the child needs is built before fork: after it, only
  // async-signal-safe calls.
  args.insert(args.begin(), std::move(program));
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    bool replaced = false;
    for (const auto& mine : environment) replaced = replaced || name_of(mine) == name_of(entry);
    if (!replaced) environment.emplace_back(entry);
  }
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  for (auto& e : environment) envp.push_back(e.data());
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
}

background_process::~background_process() { stop(); }

std::string background_process::wait_for_line(std::string_view prefix, std::chrono::milliseconds limit,
                                        const std::string& what) {
  const auto until = clock::now() + limit;
  for (;;) {
    const auto log = output();
    for (std::size_t start = 0; start < log.size();) {
      const auto end = log.find('\n', start);
      if (end == std::string::npos) break;  // the line is still being written
      const std::string_view line(log.data() + start, end - start);
      if (line.starts_with(prefix)) return std::string(line.substr(prefix.size()));
      start = end + 1;
    }
    std::string failure;
    if (exits_within(pid_, 0ms)) {
      failure = "exited before it was ready";
    } else if (clock::now() >= until) {
      failure = "was not ready within " + std::to_string(limit.count()) + " ms";
    }
    if (!failure.empty()) {
      stop();
      throw std::runtime_error(what + " " + failure + "; its output:\n" + log);
    }
    std::this_thread::sleep_for(20ms);
  }
}

std::string background_process::output() const { return read_log(log_fd_); }

bool background_process::running() const { return pid_ > 0 && !exits_within(pid_, 0ms); }

void background_process::stop() noexcept {
  if (pid_ > 0) {
    ::kill(-pid_, SIGTERM);
    exits_within(pid_, 2s);
    ::kill(-pid_, SIGKILL);  // a program that ignored SIGTERM, and anything it started
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
