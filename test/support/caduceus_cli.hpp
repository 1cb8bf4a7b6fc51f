#pragma once
// The caduceus command-line tool run as a child process, for the tests of
// the tool (test/integration/cli_*_test.cpp). CADUCEUS_BIN_DIR is the folder
// of the programs the tests start (test/CMakeLists.txt).

#include "child_process.hpp"
#include "test_program.hpp"

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace mcp::test {

inline const std::string caduceus_program = test_program("caduceus");

/// `caduceus ARGS...`, killed at `limit`.
inline command_result cli(std::vector<std::string> args,
                          std::chrono::milliseconds limit = std::chrono::seconds(20)) {
  args.insert(args.begin(), caduceus_program);
  return run_command(std::move(args), limit);
}

/// What a finished command did, for a failure message.
inline std::string describe(const command_result& r) {
  return "exit " + std::to_string(r.exit_code) + (r.finished ? "" : " (killed at the deadline)") +
         "\nstdout: " + r.out + "\nstderr: " + r.err;
}

}  // namespace mcp::test
