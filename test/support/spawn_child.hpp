#pragma once
// Starting and ending the programs tests run: posix_spawn with SIGPIPE,
// SIGINT and SIGTERM back at their defaults and nothing blocked (a test
// runner may ignore or block them, and the child would inherit that), and a
// SIGKILL that always reaps.

#include <csignal>
#include <cerrno>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>

extern char** environ;

namespace mcp::test {

/// Starts argv[0] (a path) with `actions` (its descriptors) and `flags`
/// besides the signal ones (POSIX_SPAWN_SETSID...); destroys `actions`.
/// Returns posix_spawn's error number: 0 when `pid` was started.
inline int spawn_child(pid_t& pid, std::vector<std::string>& argv, posix_spawn_file_actions_t& actions,
                       short flags = 0) {
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGTERM);
  sigemptyset(&empty);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setsigmask(&attributes, &empty);
  posix_spawnattr_setflags(&attributes, static_cast<short>(flags | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK));
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int rc = ::posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  return rc;
}

/// SIGKILLs `pid` (a stopped process too) and reaps it.
inline void kill_and_reap(pid_t pid) {
  ::kill(pid, SIGKILL);
  int ignored;
  while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace mcp::test
