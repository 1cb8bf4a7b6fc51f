#pragma once
// The stdio transport, client side: spawns an MCP server as a child process
// and talks to it over its stdin and stdout.

#include <mcp/export.hpp>
#include <mcp/transport/transport.hpp>

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

/// The child spawn_process starts, and how its transport ends it.
struct MCP_API process_options {
  /// The program, looked up in PATH (on Windows also with PATHEXT's
  /// extensions: `npx` is npx.cmd, which runs through cmd.exe).
  std::string command;
  std::vector<std::string> args;              ///< arguments after the program name
  std::map<std::string, std::string> env;     ///< set in (or added to) the child's environment
  bool inherit_environment = true;            ///< start from our environment
  std::optional<std::string> working_directory;  ///< the child's; unset: ours
  /// Each line the child writes to stderr. Default: copied to our stderr.
  std::function<void(std::string_view line)> on_stderr;
  /// The bound on one line of the child's stdout: a longer one is dropped
  /// and read as inbound_frame::oversized.
  std::size_t max_frame_size = default_max_frame_size;
  /// Shutdown (spec: lifecycle, "stdio"): close the child's stdin and wait
  /// `exit_grace`; then SIGTERM and wait `terminate_grace`; then SIGKILL.
  /// (Windows: CTRL_BREAK_EVENT, which reaches the child only when it shares
  /// our console; then TerminateJobObject, which ends what it started too.)
  std::chrono::milliseconds exit_grace{2000};
  std::chrono::milliseconds terminate_grace{2000};  ///< the wait after SIGTERM, before SIGKILL
};

/// Spawns the child. Throws `mcp::error` (its code the errno; on Windows the
/// system's error) when it cannot be started (for example one that equals
/// errc::no_such_file_or_directory for an unknown program).
MCP_API std::unique_ptr<message_transport> spawn_process(asio::any_io_executor ex, process_options options);

/// Splits a command line into words the way a POSIX shell would for simple
/// input: whitespace separates words, single and double quotes group them,
/// a backslash escapes the next character. Throws mcp::invalid_argument on an
/// unterminated quote.
MCP_API std::vector<std::string> split_command_line(std::string_view line);

}  // namespace mcp
