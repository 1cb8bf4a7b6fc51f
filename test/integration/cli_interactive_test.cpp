// The caduceus CLI answering a server: elicitation forms and URLs answered on
// a pseudo-terminal as a person would (test/support/pty_process.hpp), stdin
// that is no terminal, --root, sampling declined or answered by a command,
// ping, watch and --header. The servers: everything-server, and
// cli-peer-server (test/integration/cli_peer_server.cpp) for what the demo
// does not ask.

#include "caduceus_cli.hpp"
#include "child_process.hpp"
#include "pty_process.hpp"

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace mcp::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const std::string everything = "'" + test_program("everything-server") + "'";  // for --stdio
const std::string peer = "'" + test_program("cli-peer-server") + "'";

std::vector<std::string> cli_args(std::vector<std::string> args) {
  args.insert(args.begin(), caduceus_program);
  return args;
}

json::value parse_or_fail(const std::string& text) {
  boost::system::error_code ec;
  auto value = json::parse(text, ec);
  if (ec) ADD_FAILURE() << "not JSON (" << ec.message() << "): " << text;
  return value;
}

/// A server that prints its URL first, stopped however the test ends.
struct http_server {
  child_process process;
  std::string url;
  explicit http_server(std::vector<std::string> argv) : process(std::move(argv)), url(process.read_line(10s)) {}
  ~http_server() { process.stop(5s); }
};

/// cli-peer-server serving up to 2025-11-25 only, over HTTP: the questions
/// come as requests (elicitation/create...). (Over stdio a legacy-only server
/// takes the client's first message, server/discover, as choosing the
/// 2026-07-28 era and refuses the initialize that follows.)
http_server legacy_peer() { return http_server({test_program("cli-peer-server"), "--legacy", "--http"}); }

/// Waits for a pty program to end; its exit code (-1 if it did not).
int finish(pty_process& p) {
  if (!p.wait(10s)) ADD_FAILURE() << "still running 10 s on; the terminal shows:\n" << p.screen();
  return p.exit_code();
}

// --- elicitation: a form on the terminal ------------------------------------------------

// Every kind of field, one invalid answer each where there is a rule to
// break, a default taken with Enter, an optional field left out.
void answer_the_whole_form(pty_process& p) {
  p.expect("Tell us about you");
  p.expect("Your name (text, from 2 to 20 characters, required)\n  How we address you\n> ");
  p.type("A\n");
  p.expect("  ! must have from 2 to 20 characters (this has 1)\n> ");
  p.type("Ann\n");
  p.expect("email (text, email, required)\n> ");
  p.type("octo\n");
  p.expect("  ! not an email address");
  p.expect("> ");
  p.type("ann@example.com\n");
  p.expect("age (whole number, from 18 to 130)\n[30] > ");
  p.type("\n");  // the default
  p.expect("score (number, over 0 and at most 10)\n> ");
  p.type("0\n");
  p.expect("  ! must be over 0 and at most 10\n> ");
  p.type("7.5\n");
  p.expect("Subscribe (yes or no)\n[no] > ");
  p.type("y\n");
  p.expect("Color (one choice: its number or value)\n  1) Red  [#f00]\n  2) Green  [#0f0]\n[Green] > ");
  p.type("1\n");
  p.expect("size (one choice: its number or value)\n  1) S\n  2) M\n  3) L\n> ");
  p.type("\n");  // optional, no default: left out
  p.expect("Toppings (from 1 to 2 of the choices, separated by commas, required)");
  p.expect("  3) Kale  [kale]\n> ");
  p.type("ham, kale, egg\n");
  p.expect("  ! choose from 1 to 2 (numbers or values, separated by commas)\n> ");
  p.type("Egg,3\n");
  p.expect("Your answer to cli-peer-server:\n  Your name: Ann\n  email: ann@example.com\n  age: 30\n  score: 7.5\n"
           "  Subscribe: yes\n  Color: Red\n  Toppings: Egg, Kale\n");
  p.expect("Send it? [Y]es, [n]o (decline), [e]dit > ");
  p.type("\n");
}

void expect_the_whole_form_accepted(const std::string& out) {
  const auto result = parse_or_fail(out);
  ASSERT_TRUE(result.is_object()) << out;
  EXPECT_EQ(result.at("action"), "accept") << out;
  const auto& content = result.at("content").as_object();
  EXPECT_EQ(content.at("name"), "Ann");
  EXPECT_EQ(content.at("email"), "ann@example.com");
  EXPECT_EQ(content.at("age").to_number<int>(), 30);
  EXPECT_EQ(content.at("score").to_number<double>(), 7.5);
  EXPECT_EQ(content.at("subscribe"), true);
  EXPECT_EQ(content.at("color"), "#f00");
  EXPECT_EQ(content.at("toppings"), json::value(json::array{"egg", "kale"}));
  EXPECT_FALSE(content.contains("size")) << out;
}

// 2026-07-28: the question comes in an input_required result.
TEST(CliInteractive, FormAnsweredFieldByField) {
  pty_process p(cli_args({"--stdio", peer, "call", "form"}));
  answer_the_whole_form(p);
  EXPECT_EQ(finish(p), 0) << p.screen();
  p.expect("sent\n");
  expect_the_whole_form_accepted(p.out());
}

// 2025-11-25: the question comes as an elicitation/create request.
TEST(CliInteractive, FormAnsweredFieldByFieldInALegacySession) {
  const auto server = legacy_peer();
  pty_process p(cli_args({"--url", server.url, "call", "form"}));
  answer_the_whole_form(p);
  EXPECT_EQ(finish(p), 0) << p.screen();
  expect_the_whole_form_accepted(p.out());
}

// Ctrl-C dismisses the question (the spec's "cancel"), not the command.
TEST(CliInteractive, CtrlCCancelsTheQuestionNotTheCommand) {
  const auto server = legacy_peer();
  pty_process p(cli_args({"--url", server.url, "call", "form"}));
  p.expect("Your name (text");
  p.expect("> ");
  p.type("\x03");
  p.expect("cancelled: cli-peer-server is told you dismissed it\n");
  EXPECT_EQ(finish(p), 0) << p.screen();
  EXPECT_EQ(parse_or_fail(p.out()), json::value(json::object{{"action", "cancel"}})) << p.out();
}

// "n" at the review declines; "e" goes through the form again with the
// answers given as the defaults.
TEST(CliInteractive, NoDeclinesAndEditGoesBack) {
  pty_process p(cli_args({"--stdio", everything, "call", "confirm", R"({"question": "Deploy?"})"}));
  p.expect("everything-server asks: Deploy?\n");
  p.expect("confirm (yes or no, required)\n> ");
  p.type("maybe\n");
  p.expect("  ! answer yes or no\n> ");
  p.type("yes\n");
  p.expect("Send it? [Y]es, [n]o (decline), [e]dit > ");
  p.type("e\n");
  p.expect("confirm (yes or no, required)\n[yes] > ");
  p.type("\n");
  p.expect("Send it? [Y]es, [n]o (decline), [e]dit > ");
  p.type("n\n");
  p.expect("declined\n");
  EXPECT_EQ(finish(p), 0) << p.screen();
  EXPECT_EQ(p.out(), "action=decline\n");
}

TEST(CliInteractive, AcceptedConfirmation) {
  pty_process p(cli_args({"--stdio", everything, "--json", "call", "confirm", R"({"question": "Deploy?"})"}));
  p.expect("confirm (yes or no, required)\n> ");
  p.type("y\n");
  p.expect("Send it? [Y]es, [n]o (decline), [e]dit > ");
  p.type("y\n");
  EXPECT_EQ(finish(p), 0) << p.screen();
  // --json: stdout is the one result document, the dialog stayed on the terminal.
  const auto result = parse_or_fail(p.out());
  EXPECT_EQ(result.at("content").at(0).at("text"), "action=accept, confirm=true") << p.out();
}

// --- elicitation without a terminal ------------------------------------------------------

TEST(CliInteractive, StdinThatIsNoTerminalAndEndsCancelsAtOnce) {
  const auto r = cli({"--stdio", everything, "call", "confirm", R"({"question": "Deploy?"})"});  // stdin: /dev/null
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "action=cancel\n") << describe(r);
  EXPECT_NE(r.err.find("everything-server asks: Deploy?"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no answer: everything-server is told you dismissed it"), std::string::npos) << r.err;
}

TEST(CliInteractive, AnswersPipedToStdin) {
  const std::string line = "printf 'y\\ny\\n' | '" + caduceus_program + "' --stdio \"" + everything +
                           "\" call confirm '{\"question\": \"Deploy?\"}'";
  const auto r = run_command({"/bin/sh", "-c", line}, 20s);
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "action=accept, confirm=true\n") << describe(r);
  EXPECT_NE(r.err.find("> y\n"), std::string::npos) << r.err;  // the answers read are shown
}

// --- URL elicitation --------------------------------------------------------------------

TEST(CliInteractive, UrlElicitationPrintsTheUrlAndItsCompletion) {
  const auto server = legacy_peer();
  pty_process p(cli_args({"--url", server.url, "call", "open_url"}));
  p.expect("cli-peer-server asks you to open a web page: Connect your account\n"
           "  https://auth.example.com/connect?flow=42\n"
           "  (on auth.example.com; caduceus does not open it for you)\n");
  p.expect("[y/n] > ");
  p.type("y\n");
  p.expect("cli-peer-server says the interaction at https://auth.example.com/connect?flow=42 is complete\n");
  EXPECT_EQ(finish(p), 0) << p.screen();
  EXPECT_EQ(parse_or_fail(p.out()), json::value(json::object{{"action", "accept"}})) << p.out();
}

TEST(CliInteractive, UrlElicitationDismissedWithCtrlD) {
  pty_process p(cli_args({"--stdio", peer, "call", "open_url"}));  // 2026-07-28
  p.expect("  https://auth.example.com/connect?flow=42\n");
  p.expect("[y/n] > ");
  p.type("\x04");
  p.expect("cancelled: cli-peer-server is told you dismissed it\n");
  EXPECT_EQ(finish(p), 0) << p.screen();
  EXPECT_EQ(parse_or_fail(p.out()), json::value(json::object{{"action", "cancel"}})) << p.out();
}

TEST(CliInteractive, UrlRequiredErrorPrintsTheUrls) {
  const auto r = cli({"--stdio", peer, "call", "needs_url"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "cli-peer-server needs you to open a web page first: Pay for order 7\n"
            "  https://pay.example.com/checkout?order=7\n"
            "caduceus: This request requires more information. (error -32042)\n");
}

// --- roots -------------------------------------------------------------------------------

struct temporary_directory {
  std::filesystem::path path;
  temporary_directory() {
    char pattern[] = "/tmp/caduceus-roots-XXXXXX";
    if (!::mkdtemp(pattern)) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~temporary_directory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

TEST(CliInteractive, RootsFromTheCommandLine) {
  temporary_directory tmp;
  std::filesystem::create_directory(tmp.path / "my project");
  std::filesystem::create_directory(tmp.path / "b");
  const auto r = cli({"--root", (tmp.path / "my project").string(), "--root", (tmp.path / "b/").string(), "--stdio",
                      everything, "call", "list_roots"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const auto roots = parse_or_fail(r.out);
  const json::value expected = json::array{
      json::object{{"uri", "file://" + tmp.path.string() + "/my%20project"}, {"name", "my project"}},
      json::object{{"uri", "file://" + tmp.path.string() + "/b"}, {"name", "b"}}};
  EXPECT_EQ(roots, expected) << r.out;
}

// Without --root the client offers none: the server's roots/list gets
// -32601 (or is never sent), and the command does not hang.
TEST(CliInteractive, NoRootsIsAnAnswerToo) {
  const auto r = cli({"--stdio", everything, "call", "list_roots"});
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
}

// --- sampling ----------------------------------------------------------------------------

TEST(CliInteractive, SamplingIsDeclinedWithoutACommand) {
  const auto r = cli({"--stdio", everything, "call", "sample", R"({"prompt": "hi"})"});
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("caduceus: declined everything-server's request for an LLM completion (sampling): "
                       "give --sampling-command CMD to answer such requests\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("User rejected sampling request"), std::string::npos) << r.err;
}

TEST(CliInteractive, SamplingIsDeclinedInALegacySessionToo) {
  // A sampling/createMessage request in a 2025-11-25 session: the -1 error goes back to the tool.
  const auto server = legacy_peer();
  const auto r = cli({"--url", server.url, "call", "sample"});
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("declined cli-peer-server's request for an LLM completion"), std::string::npos) << r.err;
}

TEST(CliInteractive, SamplingAnsweredByACommandsText) {
  const auto r = cli({"--sampling-command", "sh -c 'cat >/dev/null; echo The answer is 42'", "--stdio", everything,
                      "call", "sample", R"({"prompt": "hi"})"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "LLM said: The answer is 42\n") << describe(r);
}

TEST(CliInteractive, SamplingCommandReadsTheRequest) {
  const auto r = cli({"--sampling-command", R"(grep -o '"text":"what is 6 times 7?"')", "--stdio", everything, "call",
                      "sample", R"({"prompt": "what is 6 times 7?"})"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "LLM said: \"text\":\"what is 6 times 7?\"\n") << describe(r);
}

TEST(CliInteractive, SamplingAnsweredByACommandsJson) {
  const auto r = cli({"--sampling-command", R"(printf '{"content":{"type":"text","text":"from JSON"},"model":"m1"}')",
                      "--stdio", everything, "call", "sample", R"({"prompt": "hi"})"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "LLM said: from JSON\n") << describe(r);
}

TEST(CliInteractive, SamplingCommandThatFails) {
  const auto r = cli({"--sampling-command", "sh -c 'exit 3'", "--stdio", everything, "call", "sample",
                      R"({"prompt": "hi"})"});
  EXPECT_TRUE(r.finished) << describe(r);
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_NE(r.err.find("caduceus: the sampling command failed: sh exited with status 3\n"), std::string::npos)
      << r.err;
}

// --- ping --------------------------------------------------------------------------------

TEST(CliInteractive, Ping) {
  const auto r = cli({"--stdio", everything, "ping", "2"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err, "");
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = r.out.find("pong from everything-server in ", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, 2u) << r.out;
  EXPECT_TRUE(r.out.ends_with(" ms\n")) << r.out;

  const auto j = cli({"--stdio", everything, "--json", "ping"});
  EXPECT_EQ(j.exit_code, 0) << describe(j);
  const auto result = parse_or_fail(j.out);
  ASSERT_TRUE(result.is_object()) << j.out;
  EXPECT_EQ(result.at("roundTripMs").as_array().size(), 1u);
  EXPECT_GE(result.at("roundTripMs").at(0).to_number<double>(), 0.0);
}

// --- over HTTP: watch, --header ------------------------------------------------------------

/// Runs `watch` until it says it watches; triggers `change` (a CLI command
/// line) until the watch prints `expected` (the notification may miss a
/// stream that is not yet open: tries again, 10 times at most); then Ctrl-C.
void watch_and_see(const std::string& url, const std::string& uri, const std::vector<std::string>& change,
                   const std::string& expected, const std::string& watching) {
  child_process watch(cli_args({"--url", url, "watch", uri}));
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (watch.err().find("Ctrl-C stops") == std::string::npos && std::chrono::steady_clock::now() < until)
    watch.wait(50ms);
  ASSERT_NE(watch.err().find(watching), std::string::npos) << watch.err() << watch.out();
  std::string line;
  for (int attempt = 0; attempt < 10 && line.empty(); ++attempt) {
    std::vector<std::string> args{"--url", url};
    args.insert(args.end(), change.begin(), change.end());
    const auto r = cli(args);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    try {
      line = watch.read_line(1s);
    } catch (const std::runtime_error&) {
    }
  }
  EXPECT_EQ(line, expected) << watch.err();
  watch.signal(SIGINT);
  ASSERT_TRUE(watch.wait(10s)) << watch.err();
  EXPECT_EQ(watch.exit_code(), 0) << watch.err();  // Ctrl-C is how a watch ends
  EXPECT_EQ(watch.err().find("cancelled"), std::string::npos) << watch.err();
}

TEST(CliInteractive, WatchPrintsChangesUntilCtrlC) {
  http_server demo({caduceus_program, "serve-demo", "--http", "127.0.0.1:0"});  // 2026-07-28: subscriptions/listen
  watch_and_see(demo.url, "demo://readme", {"call", "touch", R"({"uri": "demo://readme"})"},
                "resource updated demo://readme",
                "watching tools, resources and prompts lists and demo://readme of everything-server; Ctrl-C stops");
  watch_and_see(demo.url, "demo://readme", {"call", "toggle_bonus"}, "tools list changed", "watching");
}

TEST(CliInteractive, WatchInALegacySession) {
  const auto legacy = legacy_peer();  // resources/subscribe
  watch_and_see(legacy.url, "peer://note", {"call", "touch"}, "resource updated peer://note",
                "watching tools and resources lists and peer://note of cli-peer-server; Ctrl-C stops");
  watch_and_see(legacy.url, "peer://note", {"call", "toggle"}, "tools list changed", "watching");
}

TEST(CliInteractive, WatchJsonLines) {
  http_server demo({caduceus_program, "serve-demo", "--http", "127.0.0.1:0"});
  child_process watch(cli_args({"--url", demo.url, "--json", "watch", "demo://readme"}));
  const auto until = std::chrono::steady_clock::now() + 10s;
  while (watch.err().find("Ctrl-C stops") == std::string::npos && std::chrono::steady_clock::now() < until)
    watch.wait(50ms);
  std::string line;
  for (int attempt = 0; attempt < 10 && line.empty(); ++attempt) {
    const auto r = cli({"--url", demo.url, "call", "touch", R"({"uri": "demo://readme"})"});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    try {
      line = watch.read_line(1s);
    } catch (const std::runtime_error&) {
    }
  }
  EXPECT_EQ(parse_or_fail(line),
            json::value(json::object{{"method", "notifications/resources/updated"},
                                     {"params", json::object{{"uri", "demo://readme"}}}}))
      << line;
  watch.signal(SIGINT);
  ASSERT_TRUE(watch.wait(10s));
  EXPECT_EQ(watch.exit_code(), 0) << watch.err();
}

TEST(CliInteractive, HeaderReachesTheServer) {
  http_server server({test_program("cli-peer-server"), "--http"});
  const auto r = cli({"--url", server.url, "--header", "X-Api-Key: s3cret", "--header", "X-Team:blue", "call",
                      "header", R"({"name": "x-api-key"})"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "s3cret\n");
  const auto team = cli({"--url", server.url, "--header", "X-Team:blue", "call", "header", R"({"name": "X-Team"})"});
  EXPECT_EQ(team.out, "blue\n") << describe(team);
}

// --- tasks -------------------------------------------------------------------------------

const std::string conformance = "'" + test_program("conformance-server") + "' --stdio";

// On a terminal the task's status line is on stderr while it runs, and gone at its end.
TEST(CliInteractive, TasksCallShowsTheTaskOnTheTerminal) {
  pty_process p(cli_args({"--stdio", conformance, "tasks", "call", "slow_compute", R"({"seconds": 1.5, "label": "pi"})"}));
  p.expect("  working  ");
  EXPECT_EQ(finish(p), 0) << p.screen();
  EXPECT_EQ(p.out(), "Computed pi in 1.500000 s\n");
}

TEST(CliInteractive, TasksStartGetWaitAndCancel) {  // 2026-07-28: a task outlives the command that started it
  http_server server({test_program("conformance-server"), "--port", "0"});
  const auto started = cli({"--url", server.url, "tasks", "start", "slow_compute", R"({"seconds": 1})"});
  ASSERT_EQ(started.exit_code, 0) << describe(started);
  const auto id = started.out.substr(0, started.out.find('\n'));
  ASSERT_FALSE(id.empty());

  const auto got = cli({"--url", server.url, "tasks", "get", id});
  EXPECT_EQ(got.exit_code, 0) << describe(got);
  EXPECT_TRUE(got.out.starts_with("task        " + id + "\nstatus      ")) << got.out;
  const auto json_got = cli({"--url", server.url, "--json", "tasks", "get", id});
  EXPECT_EQ(parse_or_fail(json_got.out).at("taskId"), json::value(id)) << describe(json_got);

  const auto waited = cli({"--url", server.url, "tasks", "wait", id});
  EXPECT_EQ(waited.exit_code, 0) << describe(waited);
  EXPECT_EQ(waited.out, "Computed result in 1.000000 s\n");

  const auto other = cli({"--url", server.url, "tasks", "start", "slow_compute", R"({"seconds": 30})"});
  const auto other_id = other.out.substr(0, other.out.find('\n'));
  const auto cancel = cli({"--url", server.url, "tasks", "cancel", other_id});
  EXPECT_EQ(cancel.exit_code, 0) << describe(cancel);
  EXPECT_EQ(cancel.out, "asked the server to cancel task " + other_id + "\n");
  const auto after = cli({"--url", server.url, "tasks", "wait", other_id});
  EXPECT_EQ(after.exit_code, 1) << describe(after);
  EXPECT_NE(after.err.find("caduceus: task " + other_id + " cancelled"), std::string::npos) << after.err;

  const auto failing = cli({"--url", server.url, "tasks", "call", "failing_job"});  // a tool error, as for call
  EXPECT_EQ(failing.exit_code, 1) << describe(failing);
  EXPECT_EQ(failing.out, "The job failed: the input could not be processed\n");
}

// A task's question is asked like any other (here: nobody answers).
TEST(CliInteractive, TaskThatAsksAQuestion) {
  const auto r = cli({"--stdio", conformance, "tasks", "call", "confirm_delete", R"({"filename": "a.txt"})"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.out, "Kept a.txt\n");
  EXPECT_NE(r.err.find("asks: Delete a.txt?"), std::string::npos) << r.err;
}

TEST(CliInteractive, TasksInALegacySession) {  // 2025-11-25: params.task, tasks/result, tasks/list
  const auto server = legacy_peer();
  const auto call = cli({"--url", server.url, "tasks", "call", "slow", R"({"ms": 200})"});
  EXPECT_EQ(call.exit_code, 0) << describe(call);
  EXPECT_EQ(call.out, "slept\n");
  const auto list = cli({"--url", server.url, "--json", "tasks", "list"});  // a new session has none
  EXPECT_EQ(list.exit_code, 0) << describe(list);
  EXPECT_EQ(parse_or_fail(list.out), json::value(json::object{{"tasks", json::array{}}})) << list.out;
  const auto modern = cli({"--stdio", conformance, "tasks", "list"});  // the extension has no tasks/list
  EXPECT_EQ(modern.exit_code, 1) << describe(modern);
  EXPECT_NE(modern.err.find("-32601"), std::string::npos) << modern.err;
}

// --- usage ---------------------------------------------------------------------------------

TEST(CliInteractive, UsageErrors) {
  const std::vector<std::vector<std::string>> cases{
      {"--root", "/no/such/directory", "--stdio", everything, "info"},
      {"--root", "", "--stdio", everything, "info"},
      {"--sampling-command", "", "--stdio", everything, "info"},
      {"--sampling-command", "'unterminated", "--stdio", everything, "info"},
      {"--stdio", everything, "ping", "0"},
      {"--stdio", everything, "ping", "many"},
      {"--stdio", everything, "ping", "1", "2"},
      {"--stdio", everything, "tasks"},
      {"--stdio", everything, "tasks", "frob"},
      {"--stdio", everything, "tasks", "get"},
      {"--stdio", everything, "tasks", "start"},
      {"--stdio", everything, "tasks", "list", "x"},
      {"--stdio", everything, "tasks", "call", "t", "[1]"},
  };
  for (const auto& args : cases) {
    const auto r = cli(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(r.err.starts_with("caduceus: ")) << describe(r);
    EXPECT_EQ(r.out, "");
  }
}

}  // namespace
}  // namespace mcp::test
