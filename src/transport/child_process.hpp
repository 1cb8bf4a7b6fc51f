#pragma once
// A child process with pipes to its stdin and from its stdout (and stderr):
// the server that the stdio client transport starts (process.cpp), and the
// caduceus tool's --sampling-command (tools/caduceus/run_program.cpp, which
// compiles the platform's file in). One implementation per platform
// (child_process_posix.cpp, child_process_windows.cpp); docs/platforms.md.

#include "byte_stream.hpp"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {

struct child_spec {
  /// The program, looked up in PATH. On Windows also with the extensions of
  /// PATHEXT when it has none (`npx` is npx.cmd); a .cmd or .bat file runs
  /// through cmd.exe.
  std::string command;
  std::vector<std::string> args;     ///< after the program's name
  bool inherit_environment = true;   ///< start from our environment
  std::map<std::string, std::string> environment;  ///< set in (or added to) the child's
  std::optional<std::string> working_directory;
  bool pipe_stderr = true;  ///< else the child writes to our stderr
  /// POSIX: request_exit() and kill() (and the destructor) signal the child's
  /// whole process group, not the child alone. (On Windows both end the
  /// child's Job Object: the child and whatever it started.)
  bool signal_group = false;
};

/// A started child: in a process group of its own (POSIX; on Windows a
/// process group and a Job Object of its own), so that a terminal's Ctrl-C
/// stays with us; SIGPIPE at its default.
class child_process {
 public:
  /// Starts the child. Throws mcp::error with the system's code when it
  /// cannot be started (errc::no_such_file_or_directory for an unknown
  /// program), its context "spawn COMMAND".
  child_process(asio::any_io_executor ex, const child_spec& spec);
  /// Kills the child unless it has ended, and reaps it.
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  /// Our ends of the pipes, each taken once: to its stdin, from its stdout,
  /// from its stderr (null unless spec.pipe_stderr).
  std::unique_ptr<byte_stream> take_stdin() { return std::move(stdin_); }
  std::unique_ptr<byte_stream> take_stdout() { return std::move(stdout_); }
  std::unique_ptr<byte_stream> take_stderr() { return std::move(stderr_); }

  /// Asks the child to stop: SIGTERM on POSIX; on Windows CTRL_BREAK_EVENT,
  /// which reaches it only when it shares our console (we have one).
  void request_exit() noexcept;
  /// Ends the child at once: SIGKILL; on Windows TerminateJobObject.
  void kill() noexcept;
  /// Whether the child has ended (and is reaped). Never waits.
  bool try_wait() noexcept;
  /// Once it has ended: its exit status (on POSIX 128 + N when signal N
  /// ended it), or nullopt when that is unknown (no longer our child).
  std::optional<int> exit_status() const noexcept { return exit_status_; }

 private:
  struct native;  // the platform's process identifiers
  std::unique_ptr<native> native_;
  bool ended_ = false;
  std::optional<int> exit_status_;
  std::unique_ptr<byte_stream> stdin_;
  std::unique_ptr<byte_stream> stdout_;
  std::unique_ptr<byte_stream> stderr_;
};

}  // namespace mcp::detail
