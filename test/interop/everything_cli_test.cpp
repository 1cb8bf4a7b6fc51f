// The caduceus command-line tool against server-everything, run as a user
// would: `--stdio 'node .../index.js stdio'`, `--url http://127.0.0.1:PORT/mcp`
// (Streamable HTTP) and `--url http://127.0.0.1:PORT/sse` (the tool falls
// back to HTTP+SSE by itself).

#include "caduceus_cli.hpp"
#include "everything_fixture.hpp"
#include "test_program.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

class EverythingCli : public everything_test {
 protected:
  /// `caduceus <how to reach this test's server> ARGS...`, to its end.
  command_result cli(std::vector<std::string> args) const {
    std::vector<std::string> argv{test_program("caduceus")};
    if (transport() == everything_transport::stdio) {
      argv.insert(argv.end(), {"--stdio", "'" + node_program() + "' '" + everything_script() + "' stdio"});
    } else {
      argv.insert(argv.end(), {"--url", http_server().url()});
    }
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(std::move(argv), 20s);
  }
};

bool has_line(const std::string& out, const std::string& line) {
  return ("\n" + out).find("\n" + line + "\n") != std::string::npos;
}

/// A line that starts with `start` and contains `then`.
bool has_line_like(const std::string& out, const std::string& start, const std::string& then) {
  for (std::size_t at = 0; at < out.size();) {
    const auto end = std::min(out.find('\n', at), out.size());
    const auto line = out.substr(at, end - at);
    if (line.starts_with(start) && line.find(then) != std::string::npos) return true;
    at = end + 1;
  }
  return false;
}

TEST_P(EverythingCli, InfoAndTools) {
  const auto info = cli({"info"});
  ASSERT_EQ(info.exit_code, 0) << describe(info);
  EXPECT_TRUE(has_line(info.out, "server        mcp-servers/everything 2.0.0 (Everything Reference Server)"))
      << info.out;
  EXPECT_TRUE(has_line(info.out, "protocol      2025-11-25")) << info.out;
  EXPECT_TRUE(has_line_like(info.out, "capabilities  ", "resources (subscribe, listChanged)")) << info.out;
  EXPECT_TRUE(has_line(info.out, "instructions  # Everything Server – Server Instructions")) << info.out;

  const auto tools = cli({"tools"});
  ASSERT_EQ(tools.exit_code, 0) << describe(tools);
  EXPECT_TRUE(has_line_like(tools.out, "echo  ", "(message)  ")) << tools.out;
  EXPECT_TRUE(has_line_like(tools.out, "trigger-long-running-operation  ", "(duration?, steps?)")) << tools.out;
  EXPECT_TRUE(has_line_like(tools.out, "get-sum  ", "Returns the sum of two numbers")) << tools.out;
}

TEST_P(EverythingCli, Calls) {
  const auto echo = cli({"call", "echo", R"({"message": "hello from the command line"})"});
  EXPECT_EQ(echo.exit_code, 0) << describe(echo);
  EXPECT_EQ(echo.out, "Echo: hello from the command line\n");

  // Progress comes while it runs; with stderr not a terminal, no bar is drawn.
  const auto long_running = cli({"call", "trigger-long-running-operation", R"({"duration": 0.3, "steps": 3})"});
  EXPECT_EQ(long_running.exit_code, 0) << describe(long_running);
  EXPECT_EQ(long_running.out, "Long running operation completed. Duration: 0.3 seconds, Steps: 3.\n");

  const auto image = cli({"call", "get-tiny-image"});
  EXPECT_EQ(image.exit_code, 0) << describe(image);
  EXPECT_TRUE(has_line_like(image.out, "[image image/png, ", " bytes]")) << image.out;

  // An unknown tool is a tool error here: its text is printed, the exit code is 1.
  const auto unknown = cli({"call", "no-such-tool"});
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  EXPECT_EQ(unknown.out, "MCP error -32602: Tool no-such-tool not found\n");
}

TEST_P(EverythingCli, ResourcesAndRead) {
  const auto resources = cli({"resources"});
  ASSERT_EQ(resources.exit_code, 0) << describe(resources);
  EXPECT_TRUE(has_line_like(resources.out, "  demo://resource/static/document/features.md  ", "text/markdown"))
      << resources.out;
  EXPECT_TRUE(has_line_like(resources.out, "  demo://resource/dynamic/blob/{resourceId}  ", "Dynamic Blob Resource"))
      << resources.out;

  const auto document = cli({"read", "demo://resource/static/document/startup.md"});
  EXPECT_EQ(document.exit_code, 0) << describe(document);
  EXPECT_EQ(document.out, file_text(everything_docs() + "/startup.md"));

  const auto blob = cli({"read", "demo://resource/dynamic/blob/3"});
  EXPECT_EQ(blob.exit_code, 0) << describe(blob);
  EXPECT_TRUE(blob.out.starts_with("[blob demo://resource/dynamic/blob/3 text/plain, ")) << blob.out;
}

TEST_P(EverythingCli, PromptsAndCompletions) {
  const auto prompts = cli({"prompts"});
  ASSERT_EQ(prompts.exit_code, 0) << describe(prompts);
  EXPECT_TRUE(has_line_like(prompts.out, "args-prompt  ", "(city, state?)")) << prompts.out;

  const auto prompt = cli({"prompt", "args-prompt", R"({"city": "Paris", "state": "Texas"})"});
  EXPECT_EQ(prompt.exit_code, 0) << describe(prompt);
  EXPECT_EQ(prompt.out, "user: What's weather in Paris, Texas?\n");

  const auto departments = cli({"complete", "prompt", "completable-prompt", "department", "S"});
  EXPECT_EQ(departments.exit_code, 0) << describe(departments);
  EXPECT_EQ(departments.out, "Sales\nSupport\n");

  const auto ids = cli({"complete", "resource", "demo://resource/dynamic/text/{resourceId}", "resourceId", "7"});
  EXPECT_EQ(ids.exit_code, 0) << describe(ids);
  EXPECT_EQ(ids.out, "7\n");
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingCli, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
