// The SDK's log lines seen from outside: a stdio server logging everything
// keeps stdout to JSON-RPC, the access log of a real HTTP server, and the
// bridge of a session's lines to its client (docs/observability.md#logs).

#include <mcp/client/client.hpp>
#include <mcp/log.hpp>
#include <mcp/server/access_log.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/http_client.hpp>
#include <mcp/transport/memory.hpp>

#include "child_process.hpp"
#include "http_test_server.hpp"
#include "legacy_client.hpp"
#include "test_support.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

namespace mcp::test {
namespace {

const std::string caduceus = test_program("caduceus");

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

// A temporary directory, removed with what it holds.
struct temporary_directory {
  temporary_directory() {
    std::string name = (std::filesystem::temp_directory_path() / "caduceus-log-XXXXXX").string();
    if (!::mkdtemp(name.data())) throw std::runtime_error("mkdtemp failed");
    path = name;
  }
  ~temporary_directory() { std::filesystem::remove_all(path); }
  std::filesystem::path path;
};

// Restores the SDK's levels and sink however a test ends.
struct saved_log_settings {
  saved_log_settings() {
    for (int i = 0; i < static_cast<int>(log_category::count_); ++i)
      levels.push_back(sdk_log_level(static_cast<log_category>(i)));
  }
  ~saved_log_settings() {
    set_sdk_log_sink(nullptr);
    for (int i = 0; i < static_cast<int>(log_category::count_); ++i)
      set_sdk_log_level(static_cast<log_category>(i), levels[i]);
  }
  std::vector<log_level> levels;
};

TEST(Logs, AStdioServerLoggingEverythingWritesOnlyJsonRpcOnStdout) {
  temporary_directory dir;
  const auto out = dir.path / "stdout", err = dir.path / "stderr";
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // Every category at trace, as JSON lines, and bridged to the client too;
    // tee keeps a copy of exactly what the server wrote on stdout.
    process_options options;
    options.command = "sh";
    options.args = {"-c", "'" + caduceus + "' serve-demo --log-level trace,access=trace --log-format json "
                              "--log-to-clients 2>'" + err.string() + "' | tee '" + out.string() + "'"};
    mcp::client c(ex, legacy_only());
    co_await c.connect(spawn_process(ex, options));
    co_await c.set_logging_level(logging_level::debug);
    auto args = json::object{{"text", "hi"}};
    auto echoed = co_await c.call_tool("echo", args);
    EXPECT_EQ(first_text(echoed), "hi");
    co_await c.call_tool("emit_logs");
    co_await c.list_tools();
    co_await c.ping();
    co_await c.close();
  });
  const auto written = lines_of(out);
  EXPECT_GT(written.size(), 5u);
  for (const auto& line : written) {
    boost::system::error_code ec;
    const auto value = json::parse(line, ec);
    EXPECT_TRUE(!ec && value.is_object() && value.as_object().contains("jsonrpc")) << "not JSON-RPC: " << line;
  }
  // The log lines went to stderr, as JSON lines.
  const auto logged = lines_of(err);
  EXPECT_FALSE(logged.empty());
  for (const auto& line : logged) {
    boost::system::error_code ec;
    const auto value = json::parse(line, ec);
    EXPECT_TRUE(!ec && value.is_object() && value.as_object().contains("category")) << "not a log line: " << line;
  }
}

TEST(Logs, TheAccessLogHasALinePerRequestOfARealHttpServer) {
  saved_log_settings saved;
  set_sdk_log_level(log_category::access, log_level::info);
  std::mutex mutex;
  std::vector<std::map<std::string, std::string>> lines;  // each access line's fields, as text
  set_sdk_log_sink([&](const log_record& r) {
    if (r.category != log_category::access) return;
    std::map<std::string, std::string> fields{{"msg", std::string(r.message)}};
    for (const auto& f : r.fields)
      fields[std::string(f.key)] = f.type == log_field::kind::text ? std::string(f.text) : std::to_string(f.integer);
    std::lock_guard lock(mutex);
    lines.push_back(std::move(fields));
  });
  const auto access = enable_access_log();
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    test_server server(ex, {});
    std::exception_ptr failure;
    try {
      auto transport = co_await connect_http(ex, "http://127.0.0.1:" + std::to_string(server.port()) + "/mcp");
      mcp::client c(ex, legacy_only());
      co_await c.connect(std::move(transport));
      auto args = json::object{{"text", "hi"}};
      co_await c.call_tool("echo", args);
      co_await c.close();
    } catch (...) {
      failure = std::current_exception();
    }
    co_await server.stop_and_wait();
    if (failure) std::rethrow_exception(failure);
  });
  std::lock_guard lock(mutex);
  const auto call = std::find_if(lines.begin(), lines.end(), [](auto& l) { return l["method"] == "tools/call"; });
  ASSERT_NE(call, lines.end()) << lines.size() << " access lines, none of tools/call";
  auto& line = *call;
  EXPECT_EQ(line["msg"], "POST /mcp 200");
  EXPECT_EQ(line["http_method"], "POST");
  EXPECT_EQ(line["path"], "/mcp");
  EXPECT_EQ(line["status"], "200");
  EXPECT_TRUE(line["peer"].starts_with("127.0.0.1:")) << line["peer"];
  EXPECT_FALSE(line["session_id"].empty());
  EXPECT_TRUE(line.contains("duration"));
  EXPECT_NE(line["bytes_in"], "0");
  EXPECT_NE(line["bytes_out"], "0");
  EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](auto& l) { return l["method"] == "initialize"; }));
}

// A tool that logs a line of its session at every level, and lines that must
// stay local: a transport line and an access line of its session.
void add_chatty_tool(mcp::server& srv) {
  srv.add_tool("chatty", "logs", [](mcp::request_context& ctx) -> asio::awaitable<std::string> {
    const auto& id = ctx.session().id();
    for (auto level : {log_level::trace, log_level::debug, log_level::info, log_level::warn, log_level::error})
      sdk_log(log_category::server, level, "a line", {{"session_id", id}, {"level", to_string(level)}});
    sdk_log(log_category::transport, log_level::error, "a transport line", {{"session_id", id}});
    sdk_log(log_category::access, log_level::error, "an access line", {{"session_id", id}});
    sdk_log(log_category::session, log_level::error, "the end", {{"session_id", id}});
    co_return id;
  });
}

// What a client heard: "logger level: msg" for each notifications/message.
struct heard_lines {
  std::vector<std::string> lines;
  std::vector<std::string> session_ids;
  bool ended = false;

  void hear(const log_message& m) {
    const auto& data = m.data.as_object();
    lines.push_back(m.logger + " " + std::string(to_string(m.level)) + ": " + std::string(data.at("msg").as_string()));
    session_ids.emplace_back(data.at("session_id").as_string());
    ended = ended || data.at("msg") == "the end";
  }
};

TEST(Logs, TheBridgeSendsASessionsLinesToItsClientAtItsLevel) {
  saved_log_settings saved;
  set_sdk_log_levels("trace");
  set_sdk_log_sink([](const log_record&) {});  // (the bridge sees the lines all the same)
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    server_options options;
    options.log_to_clients = true;
    mcp::server srv(implementation{"bridge-test", "1.0.0"}, options);
    add_chatty_tool(srv);
    auto [one_end, one_server] = make_memory_pair(ex);
    auto [two_end, two_server] = make_memory_pair(ex);
    int served = 0;
    asio::co_spawn(ex, serve(srv, *one_server), [&](std::exception_ptr) { ++served; });
    asio::co_spawn(ex, serve(srv, *two_server), [&](std::exception_ptr) { ++served; });
    mcp::client one(ex, legacy_only()), two(ex, legacy_only());
    heard_lines heard_one, heard_two;
    one.on_log([&](const log_message& m) { heard_one.hear(m); });
    two.on_log([&](const log_message& m) { heard_two.hear(m); });
    co_await one.connect(std::move(one_end));
    co_await two.connect(std::move(two_end));
    co_await one.set_logging_level(logging_level::warning);
    co_await two.set_logging_level(logging_level::debug);

    const auto first = co_await one.call_tool("chatty");
    const auto second = co_await two.call_tool("chatty");
    const auto one_id = first_text(first), two_id = first_text(second);
    // The lines are sent in order: once "the end" is in, all that will come has.
    const bool ended = co_await wait_until([&] { return heard_one.ended && heard_two.ended; }, 5s);
    EXPECT_TRUE(ended);

    // The engine's own line of initialize comes first: sent before the
    // client set a level, when a legacy session gets everything.
    EXPECT_EQ(heard_one.lines, (std::vector<std::string>{"caduceus.session info: session initialized",
                                                         "caduceus.server warning: a line",
                                                         "caduceus.server error: a line",
                                                         "caduceus.session error: the end"}));
    EXPECT_EQ(heard_two.lines, (std::vector<std::string>{
                                   "caduceus.session info: session initialized", "caduceus.server debug: a line", "caduceus.server debug: a line",
                                   "caduceus.server info: a line", "caduceus.server warning: a line",
                                   "caduceus.server error: a line", "caduceus.session error: the end"}));
    for (const auto& id : heard_one.session_ids) EXPECT_EQ(id, one_id);
    for (const auto& id : heard_two.session_ids) EXPECT_EQ(id, two_id);
    co_await one.close();
    co_await two.close();
    while (served < 2) co_await sleep_for(5ms);
  });
}

TEST(Logs, WithoutTheOptionNothingIsBridged) {
  saved_log_settings saved;
  set_sdk_log_levels("trace");
  set_sdk_log_sink([](const log_record&) {});  // (the bridge sees the lines all the same)
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::server srv(implementation{"bridge-test", "1.0.0"});
    add_chatty_tool(srv);
    srv.add_tool("log", "logs through the context", [](mcp::request_context& ctx) -> asio::awaitable<std::string> {
      co_await ctx.log(logging_level::error, json::value("from the handler"));
      co_return "logged";
    });
    auto [client_end, server_end] = make_memory_pair(ex);
    bool served = false;
    asio::co_spawn(ex, serve(srv, *server_end), [&](std::exception_ptr) { served = true; });
    mcp::client c(ex, legacy_only());
    std::vector<std::string> heard;
    c.on_log([&](const log_message& m) { heard.push_back(json::serialize(m.data)); });
    co_await c.connect(std::move(client_end));
    co_await c.call_tool("chatty");
    co_await c.call_tool("log");  // its message comes after what chatty's would have
    const bool logged = co_await wait_until([&] { return !heard.empty(); }, 5s);
    EXPECT_TRUE(logged);
    EXPECT_EQ(heard, (std::vector<std::string>{"\"from the handler\""}));
    co_await c.close();
    while (!served) co_await sleep_for(5ms);
  });
}

TEST(Logs, ServeDemoWritesItsAccessLogAsJsonLinesOnStderr) {
  child_process demo{{caduceus, "serve-demo", "--http", "127.0.0.1:0", "--access-log", "--log-format", "json"}};
  const auto url = demo.read_line(10s);
  const auto tools = run_command({caduceus, "--url", url, "tools"}, 20s);
  EXPECT_EQ(tools.exit_code, 0) << tools.err;
  demo.stop(5s);
  std::vector<json::object> access;
  std::istringstream err(demo.err());
  for (std::string line; std::getline(err, line);) {
    boost::system::error_code ec;
    auto value = json::parse(line, ec);
    ASSERT_FALSE(ec) << "not a JSON line: " << line;
    if (value.as_object().at("category") == "access") access.push_back(value.as_object());
  }
  const auto listed = std::find_if(access.begin(), access.end(), [](auto& l) {
    const auto* method = l.if_contains("method");
    return method && *method == "tools/list";
  });
  ASSERT_NE(listed, access.end()) << demo.err();
  EXPECT_EQ(listed->at("status"), 200);
  EXPECT_EQ(listed->at("path"), "/mcp");
}

TEST(Logs, ABadLogOptionIsAUsageError) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--log-level", "loud", "--stdio", "true", "tools"},
                                              {"--log-format", "xml", "--stdio", "true", "tools"},
                                              {"serve-demo", "--log-level", "transport=nope"},
                                              {"serve-demo", "--access-log"}}) {
    std::vector<std::string> argv{caduceus};
    argv.insert(argv.end(), args.begin(), args.end());
    const auto r = run_command(argv, 20s);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.err.starts_with("caduceus: ")) << r.err;
  }
}

}  // namespace
}  // namespace mcp::test
