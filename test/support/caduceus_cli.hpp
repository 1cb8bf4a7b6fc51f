#pragma once
// The caduceus command-line tool run as a child process, for the tests of
// the tool (test/integration/cli_*_test.cpp). CADUCEUS_BIN_DIR is the folder
// of the programs the tests start (test/CMakeLists.txt).

#include "child_process.hpp"
#include "test_program.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mcp::test {

inline const std::string caduceus_program = test_program("caduceus");
/// The test server slow-server as a --stdio command line (quoted).
inline const std::string slow_server_command = "'" + test_program("slow-server") + "'";

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

/// The words of a `caduceus gateway` command line, after `gateway`.
struct gateway_arguments {
  std::vector<std::string> words;
};

/// `caduceus gateway ARGS... --http 127.0.0.1:0`, its URL read from its first
/// line, stopped (SIGTERM) at the end of the test.
struct gateway_process {
  child_process process;
  std::string url;
  std::uint16_t port = 0;

  explicit gateway_process(gateway_arguments args)
      : process(argv(std::move(args.words))), url(process.read_line(std::chrono::seconds(20))) {
    const auto colon = url.rfind(':');
    port = static_cast<std::uint16_t>(std::stoi(url.substr(colon + 1)));
  }
  /// In front of the program `upstream` runs (--stdio).
  explicit gateway_process(const std::string& upstream, std::vector<std::string> extra = {})
      : gateway_process(gateway_arguments{with_upstream(upstream, std::move(extra))}) {}
  ~gateway_process() { process.stop(std::chrono::seconds(10)); }

 private:
  static std::vector<std::string> argv(std::vector<std::string> args) {
    args.insert(args.begin(), {caduceus_program, "gateway"});
    args.insert(args.end(), {"--http", "127.0.0.1:0"});
    return args;
  }
  static std::vector<std::string> with_upstream(const std::string& upstream, std::vector<std::string> extra) {
    extra.insert(extra.begin(), {"--stdio", upstream});
    return extra;
  }
};

/// `cli-peer-server --legacy --http`: an upstream of the session-based
/// revisions only, whose `sample` tool asks the client for sampling while it
/// runs; stopped at the end of the test.
struct legacy_http_upstream {
  child_process process{{test_program("cli-peer-server"), "--legacy", "--http"}};
  std::string url = process.read_line(std::chrono::seconds(10));
  ~legacy_http_upstream() { process.stop(std::chrono::seconds(5)); }
};

/// A client's answer to a sampling request: its model says `text`.
inline boost::json::object sampling_answer(std::string text) {
  return {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", std::move(text)}}}, {"model", "test-model"}};
}

}  // namespace mcp::test
