#pragma once
// A node program run in the background for a test: in its own process group,
// its stdout and stderr in a file with no name, stopped (the whole group)
// however the test ends, and killed should the test process die first
// (PR_SET_PDEATHSIG). Its stdin is /dev/null.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include <sys/types.h>

namespace mcp::test {

/// The node program CMake found.
std::string node_program();

class node_process {
 public:
  /// Starts `node args...` with `environment` (NAME=value entries) added to,
  /// or replacing in, this process's. Throws std::runtime_error when it cannot.
  node_process(std::vector<std::string> args, std::vector<std::string> environment = {});
  ~node_process();
  node_process(const node_process&) = delete;
  node_process& operator=(const node_process&) = delete;

  /// Waits for a whole line of its output that starts with `prefix`, and
  /// returns the rest of it. Throws std::runtime_error with everything it
  /// wrote when it exits first or `limit` passes (`what` names it).
  std::string wait_for_line(std::string_view prefix, std::chrono::milliseconds limit, const std::string& what);
  /// Everything it wrote on stdout and stderr so far.
  std::string output() const;
  /// False once it has exited.
  bool running() const;
  /// SIGTERM to the group, then SIGKILL after 2 s; reaps it.
  void stop() noexcept;

 private:
  int log_fd_ = -1;
  pid_t pid_ = -1;
};

}  // namespace mcp::test
