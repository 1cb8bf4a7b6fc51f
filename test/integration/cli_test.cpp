// The caduceus command-line tool, run as a user would: against everything-server
// over stdio, and against `caduceus serve-demo --http` over HTTP.

#include "caduceus_cli.hpp"
#include "child_process.hpp"

#include <mcp/version.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace mcp::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const std::string server = test_program("everything-server");
// For --stdio: the path quoted, as a shell would want it.
const std::string server_line = "'" + server + "'";

/// `caduceus --stdio everything-server ARGS...`
command_result over_stdio(std::vector<std::string> args) {
  args.insert(args.begin(), {"--stdio", server_line});
  return cli(std::move(args));
}

/// Exactly one JSON document on stdout (parse fails on anything after it).
json::value stdout_json(const command_result& r) {
  boost::system::error_code ec;
  auto value = json::parse(r.out, ec);
  if (ec) ADD_FAILURE() << "stdout is not one JSON document (" << ec.message() << "): " << r.out;
  return value;
}

/// A failure: one line `caduceus: ...` on stderr.
void expect_one_error_line(const command_result& r) {
  EXPECT_TRUE(r.err.starts_with("caduceus: ")) << describe(r);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << describe(r);
  EXPECT_TRUE(r.err.ends_with("\n")) << describe(r);
}

void expect_ok(const command_result& r) {
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
}

// --- usage ---------------------------------------------------------------------------

TEST(Cli, HelpPrintsUsage) {
  const auto r = cli({"--help"});
  expect_ok(r);
  EXPECT_TRUE(r.out.starts_with("usage: caduceus")) << r.out;
  EXPECT_NE(r.out.find("serve-demo"), std::string::npos);
}

TEST(Cli, VersionPrintsItsOwnAndTheLibrarysVersion) {
  const auto r = cli({"--version"});
  expect_ok(r);
  EXPECT_EQ(r.out, std::string("caduceus ") + mcp::version_string + " (library " + mcp::library_version() + ")\n");
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  const std::vector<std::vector<std::string>> cases{
      {},                                                        // no command
      {"info"},                                                  // no server
      {"--url", "http://127.0.0.1:1/mcp", "--stdio", "x", "info"},  // both
      {"--stdio", server_line, "frobnicate"},                    // unknown command
      {"--stdio", server_line, "call"},                          // no tool
      {"--stdio", server_line, "tools", "extra"},                // too many words
      {"--stdio", server_line, "complete", "tool", "a", "b", "c"},
      {"--stdio", "'unterminated", "info"},
      {"--bogus", "--stdio", server_line, "info"},
      {"--timeout", "soon", "--stdio", server_line, "info"},
      {"--url", "ftp://example.com/", "info"},
      {"serve-demo", "--http", "not-a-port"},
      {"serve-demo", "--redis", "redis://127.0.0.1:6379"},                        // stdio: no sessions
      {"serve-demo", "--http", "127.0.0.1:0", "--stdio", "--redis", "redis://127.0.0.1:6379"},
      {"serve-demo", "--http", "127.0.0.1:0", "--redis", "http://127.0.0.1:6379"},  // not redis://
      {"serve-demo", "--http", "127.0.0.1:0", "--redis"},                         // no URL
      {"serve-demo", "--metrics"},  // stdio: no listener to serve them on
      {"serve-demo", "--otlp-endpoint"},                  // no URL
      {"serve-demo", "--otlp-endpoint", "127.0.0.1:4318"},  // not http(s)://
  };
  for (const auto& args : cases) {
    const auto r = cli(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    expect_one_error_line(r);
    EXPECT_EQ(r.out, "");
  }
}

TEST(Cli, RedisNeedsHttpSessions) {
  const auto with_stdio = cli({"serve-demo", "--stdio", "--redis", "redis://127.0.0.1:6379"});
  EXPECT_EQ(with_stdio.exit_code, 2) << describe(with_stdio);
  EXPECT_NE(with_stdio.err.find("--redis needs --http"), std::string::npos) << with_stdio.err;
  // everything-server says the same of --stdio, and refuses --stateless (no sessions to share).
  const auto server_stdio = run_command({server, "--stdio", "--redis", "redis://127.0.0.1:6379"});
  EXPECT_EQ(server_stdio.exit_code, 2) << describe(server_stdio);
  EXPECT_NE(server_stdio.err.find("--redis needs --http"), std::string::npos) << server_stdio.err;
  const auto stateless =
      run_command({server, "--http", "127.0.0.1:0", "--stateless", "--redis", "redis://127.0.0.1:6379"});
  EXPECT_EQ(stateless.exit_code, 2) << describe(stateless);
  EXPECT_NE(stateless.err.find("--redis does not go with --stateless"), std::string::npos) << stateless.err;
}

TEST(Cli, UnknownCommandIsAUsageError) {
  const auto r = over_stdio({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  expect_one_error_line(r);
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos) << r.err;
}

TEST(Cli, BadJsonArgumentIsAUsageError) {
  for (const std::string bad : {"{\"a\": 1", "[1, 2]", "not json"}) {
    const auto r = over_stdio({"call", "add", bad});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    expect_one_error_line(r);
    EXPECT_EQ(r.out, "");
  }
  const auto r = over_stdio({"prompt", "greeting", R"({"name": 3})"});  // prompt arguments are strings
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  expect_one_error_line(r);
}

// --- failures -------------------------------------------------------------------------

TEST(Cli, ServerCommandThatDoesNotExist) {
  const auto r = cli({"--stdio", test_program("no-such-server") + " --flag", "info"});
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  expect_one_error_line(r);
  EXPECT_NE(r.err.find("no-such-server"), std::string::npos) << r.err;
}

TEST(Cli, UnreachableUrl) {
  const auto r = cli({"--url", "http://127.0.0.1:1/mcp", "info"});
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  expect_one_error_line(r);
}

TEST(Cli, UnknownToolExitsOne) {
  const auto r = over_stdio({"call", "no_such_tool"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  expect_one_error_line(r);
  EXPECT_EQ(r.out, "");
}

TEST(Cli, FailingToolPrintsItsResultAndExitsOne) {
  const auto text = over_stdio({"call", "fail"});
  EXPECT_EQ(text.exit_code, 1) << describe(text);
  EXPECT_EQ(text.out, "this tool always fails\n");

  const auto r = over_stdio({"--json", "call", "fail"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  const auto result = stdout_json(r);
  EXPECT_TRUE(result.at("isError").as_bool());
}

// --- commands over stdio --------------------------------------------------------------

TEST(Cli, Info) {
  const auto r = over_stdio({"info"});
  expect_ok(r);
  EXPECT_NE(r.out.find("everything-server 1.0.0"), std::string::npos) << r.out;
  // The tool speaks the newest era first, and our server serves it.
  EXPECT_NE(r.out.find("2026-07-28"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tools"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("A demo of every MCP server feature."), std::string::npos) << r.out;

  const auto j = over_stdio({"--json", "info"});
  expect_ok(j);
  const auto info = stdout_json(j);
  EXPECT_EQ(info.at("serverInfo").at("name"), "everything-server");
  EXPECT_EQ(info.at("protocolVersion"), "2026-07-28");
  EXPECT_TRUE(info.at("capabilities").as_object().contains("tools"));
}

TEST(Cli, Tools) {
  const auto r = over_stdio({"tools"});
  expect_ok(r);
  EXPECT_NE(r.out.find("echo"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(a, b)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Adds two numbers"), std::string::npos) << r.out;

  const auto j = over_stdio({"--json", "tools"});
  expect_ok(j);
  const auto tools = stdout_json(j).at("tools").as_array();
  EXPECT_GE(tools.size(), 11u);
  bool found = false;
  for (const auto& t : tools)
    if (t.at("name") == "add") {
      found = true;
      EXPECT_TRUE(t.at("inputSchema").at("properties").as_object().contains("a"));
    }
  EXPECT_TRUE(found);
}

TEST(Cli, CallEcho) {
  const auto r = over_stdio({"call", "echo", R"({"text": "hello, world"})"});
  expect_ok(r);
  EXPECT_EQ(r.out, "hello, world\n");
}

TEST(Cli, CallAddJson) {
  const auto r = over_stdio({"--json", "call", "add", R"({"a": 2, "b": 3.5})"});
  expect_ok(r);
  const auto result = stdout_json(r);
  EXPECT_EQ(result.at("structuredContent").at("sum").to_number<double>(), 5.5);
  EXPECT_EQ(result.at("content").at(0).at("text"), "5.5");

  const auto text = over_stdio({"call", "add", R"({"a": 2, "b": 3})"});
  expect_ok(text);
  EXPECT_EQ(text.out, "5\nstructured content: {\"sum\":5}\n");
}

TEST(Cli, CallNotesOtherBlocksByTypeAndSize) {
  const auto r = over_stdio({"call", "media"});
  expect_ok(r);
  EXPECT_NE(r.out.find("[image image/png, 70 bytes]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[audio audio/wav, 44 bytes]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[resource link demo://readme"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[resource demo://inline text/plain, 11 bytes]"), std::string::npos) << r.out;
}

TEST(Cli, NoProgressBarWhenStderrIsNotATerminal) {
  const auto r = over_stdio({"call", "long_task", R"({"steps": 3, "step_ms": 20})"});
  expect_ok(r);  // stderr empty
  EXPECT_EQ(r.out, "completed 3 steps\n");
}

TEST(Cli, ResourcesAndRead) {
  const auto r = over_stdio({"resources"});
  expect_ok(r);
  EXPECT_NE(r.out.find("demo://readme"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("demo://items/25"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("demo://users/{id}"), std::string::npos) << r.out;

  const auto readme = over_stdio({"read", "demo://readme"});
  expect_ok(readme);
  EXPECT_EQ(readme.out, "# everything-server\nEvery MCP server feature.\n");

  const auto logo = over_stdio({"read", "demo://logo.png"});
  expect_ok(logo);
  EXPECT_EQ(logo.out, "[blob demo://logo.png image/png, 70 bytes]\n");

  const auto missing = over_stdio({"read", "demo://missing"});
  EXPECT_EQ(missing.exit_code, 1) << describe(missing);
  expect_one_error_line(missing);
}

TEST(Cli, PromptsAndPrompt) {
  const auto r = over_stdio({"prompts"});
  expect_ok(r);
  EXPECT_NE(r.out.find("greeting"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(name, style?)"), std::string::npos) << r.out;

  const auto p = over_stdio({"prompt", "greeting", R"({"name": "Ann", "style": "pirate"})"});
  expect_ok(p);
  EXPECT_EQ(p.out, "user: Ahoy, Ann!\n");

  const auto image = over_stdio({"prompt", "with_image"});
  expect_ok(image);
  EXPECT_EQ(image.out, "user: [image image/png, 70 bytes]\nuser: What is in this image?\n");
}

TEST(Cli, Complete) {
  const auto p = over_stdio({"complete", "prompt", "greeting", "style", "f"});
  expect_ok(p);
  EXPECT_EQ(p.out, "formal\n");

  const auto t = over_stdio({"complete", "resource", "demo://users/{id}", "id", "2"});
  expect_ok(t);
  EXPECT_TRUE(t.out.starts_with("2\n20\n")) << t.out;
}

TEST(Cli, JsonOutputsParse) {
  struct check {
    std::vector<std::string> command;
    std::function<void(const json::object&)> expect;
  };
  const std::vector<check> checks{
      {{"info"}, [](const json::object& o) { EXPECT_TRUE(o.contains("serverInfo")); }},
      {{"tools"}, [](const json::object& o) { EXPECT_TRUE(o.at("tools").is_array()); }},
      {{"call", "echo", R"({"text": "hi"})"},
       [](const json::object& o) { EXPECT_EQ(o.at("content").at(0).at("text"), "hi"); }},
      {{"resources"},
       [](const json::object& o) {
         EXPECT_EQ(o.at("resources").as_array().size(), 27u);
         EXPECT_EQ(o.at("resourceTemplates").at(0).at("uriTemplate"), "demo://users/{id}");
       }},
      {{"read", "demo://users/7"},
       [](const json::object& o) {
         EXPECT_EQ(json::parse(o.at("contents").at(0).at("text").as_string()).at("name"), "User 7");
       }},
      {{"prompts"}, [](const json::object& o) { EXPECT_EQ(o.at("prompts").as_array().size(), 2u); }},
      {{"prompt", "greeting", R"({"name": "Bo"})"},
       [](const json::object& o) { EXPECT_EQ(o.at("messages").at(0).at("content").at("text"), "Hello, Bo!"); }},
      {{"complete", "prompt", "greeting", "style", "p"},
       [](const json::object& o) {
         EXPECT_EQ(o.at("completion").at("values"), json::value(json::array{"pirate"}));
       }},
      {{"complete", "resource", "demo://users/{id}", "id", "4"},
       [](const json::object& o) { EXPECT_EQ(o.at("completion").at("values").at(0), "4"); }},
  };
  for (const auto& [command, expect] : checks) {
    std::vector<std::string> args{"--json"};
    args.insert(args.end(), command.begin(), command.end());
    const auto r = over_stdio(args);
    expect_ok(r);
    const auto value = stdout_json(r);
    ASSERT_TRUE(value.is_object()) << r.out;
    expect(value.as_object());
  }
}

TEST(Cli, ServeDemoOverStdio) {
  const auto r = cli({"--stdio", "'" + caduceus_program + "' serve-demo", "call", "echo", R"({"text": "demo"})"});
  expect_ok(r);
  EXPECT_EQ(r.out, "demo\n");
}

// --- Ctrl-C ---------------------------------------------------------------------------

constexpr const char* long_call = R"({"steps": 1000, "step_ms": 100})";  // 100 s
// Long enough for the CLI to have started (its Ctrl-C handler installed, the
// call sent) even under a sanitizer on a loaded machine: a SIGINT before the
// handler exists kills the process with no "cancelled".
constexpr auto call_under_way = 1500ms;

TEST(Cli, CtrlCCancelsACall) {
  child_process child({caduceus_program, "--stdio", server_line, "call", "long_task", long_call});
  std::this_thread::sleep_for(call_under_way);
  child.signal(SIGINT);
  ASSERT_TRUE(child.wait(5s)) << "still running 5 s after SIGINT; stderr: " << child.err();
  EXPECT_EQ(child.exit_code(), 130) << child.err();
  EXPECT_EQ(child.err(), "cancelled\n");
  EXPECT_EQ(child.out(), "");
}

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The server sees notifications/cancelled: `tee` records what reaches it.
TEST(Cli, CtrlCSendsCancelledToTheServer) {
  char pattern[] = "/tmp/caduceus-cli-XXXXXX";
  const int fd = ::mkstemp(pattern);
  ASSERT_GE(fd, 0);
  ::close(fd);
  const std::string log = pattern;
  struct remove_at_end {
    std::string path;
    ~remove_at_end() { std::remove(path.c_str()); }
  } cleanup{log};

  const std::string line = "sh -c \"tee '" + log + "' | '" + server + "'\"";
  child_process child({caduceus_program, "--stdio", line, "call", "long_task", long_call});
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (file_text(log).find("tools/call") == std::string::npos && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  ASSERT_NE(file_text(log).find("tools/call"), std::string::npos) << "the call never reached the server";
  std::this_thread::sleep_for(200ms);  // a few progress steps
  child.signal(SIGINT);
  ASSERT_TRUE(child.wait(5s)) << "still running 5 s after SIGINT; stderr: " << child.err();
  EXPECT_EQ(child.exit_code(), 130) << child.err();
  EXPECT_EQ(child.err(), "cancelled\n");
  const auto until_logged = std::chrono::steady_clock::now() + 2s;
  while (file_text(log).find("notifications/cancelled") == std::string::npos &&
         std::chrono::steady_clock::now() < until_logged)
    std::this_thread::sleep_for(20ms);
  EXPECT_NE(file_text(log).find("notifications/cancelled"), std::string::npos) << file_text(log);
}

// --- over HTTP, against caduceus serve-demo --------------------------------------------

/// `caduceus serve-demo --http 127.0.0.1:0`, stopped (SIGTERM, then SIGKILL)
/// however the test ends.
struct demo_server {
  child_process process{{caduceus_program, "serve-demo", "--http", "127.0.0.1:0"}};
  std::string url = process.read_line(10s);
  ~demo_server() { process.stop(5s); }
};

command_result over_http(const demo_server& demo, std::vector<std::string> args) {
  args.insert(args.begin(), {"--url", demo.url});
  return cli(std::move(args));
}

TEST(Cli, ServeDemoPrintsItsUrlFirst) {
  demo_server demo;
  EXPECT_TRUE(demo.url.starts_with("http://127.0.0.1:")) << demo.url;
  EXPECT_TRUE(demo.url.ends_with("/mcp")) << demo.url;
}

TEST(Cli, CommandsOverHttp) {
  demo_server demo;

  const auto info = over_http(demo, {"info"});
  expect_ok(info);
  EXPECT_NE(info.out.find("everything-server 1.0.0"), std::string::npos) << info.out;

  const auto tools = over_http(demo, {"tools"});
  expect_ok(tools);
  EXPECT_NE(tools.out.find("long_task"), std::string::npos) << tools.out;

  const auto echo = over_http(demo, {"call", "echo", R"({"text": "over http"})"});
  expect_ok(echo);
  EXPECT_EQ(echo.out, "over http\n");

  const auto add = over_http(demo, {"--json", "call", "add", R"({"a": 40, "b": 2})"});
  expect_ok(add);
  EXPECT_EQ(stdout_json(add).at("structuredContent").at("sum").to_number<double>(), 42.0);

  const auto progress = over_http(demo, {"call", "long_task", R"({"steps": 3, "step_ms": 20})"});
  expect_ok(progress);
  EXPECT_EQ(progress.out, "completed 3 steps\n");

  const auto fail = over_http(demo, {"call", "fail"});
  EXPECT_EQ(fail.exit_code, 1) << describe(fail);

  const auto unknown = over_http(demo, {"call", "no_such_tool"});
  EXPECT_EQ(unknown.exit_code, 1) << describe(unknown);
  expect_one_error_line(unknown);

  const auto resources = over_http(demo, {"--json", "resources"});
  expect_ok(resources);
  EXPECT_EQ(stdout_json(resources).at("resources").as_array().size(), 27u);

  const auto read = over_http(demo, {"read", "demo://readme"});
  expect_ok(read);
  EXPECT_EQ(read.out, "# everything-server\nEvery MCP server feature.\n");

  const auto prompts = over_http(demo, {"prompts"});
  expect_ok(prompts);
  EXPECT_NE(prompts.out.find("with_image"), std::string::npos) << prompts.out;

  const auto prompt = over_http(demo, {"prompt", "greeting", R"({"name": "Cy", "style": "formal"})"});
  expect_ok(prompt);
  EXPECT_EQ(prompt.out, "user: Good day, Cy.\n");

  const auto complete = over_http(demo, {"--json", "complete", "prompt", "greeting", "style", "c"});
  expect_ok(complete);
  EXPECT_EQ(stdout_json(complete).at("completion").at("values"), json::value(json::array{"casual"}));
}

TEST(Cli, LegacySseEndpointOverHttp) {
  demo_server demo;
  const auto sse = demo.url.substr(0, demo.url.size() - 4) + "/sse";  // .../mcp -> .../sse
  const auto r = cli({"--url", sse, "call", "echo", R"({"text": "legacy"})"});
  expect_ok(r);
  EXPECT_EQ(r.out, "legacy\n");
}

TEST(Cli, CtrlCCancelsACallOverHttp) {
  demo_server demo;
  child_process child({caduceus_program, "--url", demo.url, "call", "long_task", long_call});
  std::this_thread::sleep_for(call_under_way);
  child.signal(SIGINT);
  ASSERT_TRUE(child.wait(5s)) << "still running 5 s after SIGINT; stderr: " << child.err();
  EXPECT_EQ(child.exit_code(), 130) << child.err();
  EXPECT_EQ(child.err(), "cancelled\n");
  // The server is still serving.
  const auto after = over_http(demo, {"call", "echo", R"({"text": "still here"})"});
  expect_ok(after);
  EXPECT_EQ(after.out, "still here\n");
}

}  // namespace
}  // namespace mcp::test
