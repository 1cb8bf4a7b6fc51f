#pragma once
// A program (node, or one of ours) run in the background for a test: in its own process group,
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

/// A program run in the background as described above.
class background_process {
 public:
  /// Starts `program args...` with `environment` (NAME=value entries) added
  /// to, or replacing in, this process's. Throws std::runtime_error when it cannot.
  background_process(std::string program, std::vector<std::string> args, std::vector<std::string> environment = {});
  ~background_process();
  background_process(const background_process&) = delete;
  background_process& operator=(const background_process&) = delete;

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

/// `node args...` run in the background.
class node_process : public background_process {
 public:
  explicit node_process(std::vector<std::string> args, std::vector<std::string> environment = {})
      : background_process(node_program(), std::move(args), std::move(environment)) {}
};

}  // namespace mcp::test
