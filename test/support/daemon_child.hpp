#pragma once
// Starts a server program a test runs beside it (redis-server, haproxy, our
// own nodes): stdin from /dev/null, stdout and stderr to the test's log
// files, and killed with the test process should that die first
// (PR_SET_PDEATHSIG: call it on the thread that runs the test, whose end is
// what the kernel watches).

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <unistd.h>

namespace mcp::test {

/// Forks and execs `args` (args[0] is the program's path); returns its pid.
/// Throws std::runtime_error when fork fails; a child that cannot exec exits 127.
inline pid_t start_daemon_child(std::vector<std::string> args, int out_fd, int err_fd) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) {  // only async-signal-safe calls until exec
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int null_fd = ::open("/dev/null", O_RDONLY);
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

}  // namespace mcp::test
