// Our client and our stdio servers as real child processes.

#include <mcp/client/client.hpp>
#include <mcp/error.hpp>
#include <mcp/transport/process.hpp>

#include "test_support.hpp"
#include "legacy_client.hpp"

#include <csignal>
#include <sys/wait.h>

namespace mcp::test {
namespace {


json::object tool_args(std::initializer_list<std::pair<std::string_view, json::value>> items) {
  json::object args;
  for (const auto& [key, value] : items) args[key] = value;
  return args;
}

TEST(Stdio, ClientDrivesCounterServer) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    auto transport = spawn_process(ex, bin_command("counter-server"));
    EXPECT_EQ(transport->metadata().kind, "stdio");  // (telemetry's network.transport: pipe)
    auto hello = co_await c.connect(std::move(transport));
    EXPECT_EQ(hello.server_info.name, "counter-server");
    EXPECT_EQ(hello.version, latest_legacy_version);
    auto tools = co_await c.list_tools();
    EXPECT_EQ(tools.at(0).name, "counter");
    auto increment = tool_args({{"increment", true}});
    auto first = co_await c.call_tool("counter", increment);
    auto second = co_await c.call_tool("counter", increment);
    auto current = co_await c.call_tool("counter");
    EXPECT_EQ(first_text(first), "Counter value: 1");
    EXPECT_EQ(first_text(second), "Counter value: 2");
    EXPECT_EQ(first_text(current), "Counter value: 2");
    co_await c.ping();
    co_await c.close();
    EXPECT_EQ(c.state(), connection_state::disconnected);
  });
}

TEST(Stdio, EachSessionCountsOnItsOwn) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client one(ex), two(ex);
    const auto command = bin_command("counter-server");
    co_await one.connect(spawn_process(ex, command));
    co_await two.connect(spawn_process(ex, command));
    auto increment = tool_args({{"increment", true}});
    co_await one.call_tool("counter", increment);
    co_await one.call_tool("counter", increment);
    auto other = co_await two.call_tool("counter", increment);
    EXPECT_EQ(first_text(other), "Counter value: 1");
    co_await one.close();
    co_await two.close();
  });
}

TEST(Stdio, NegotiatesEachLegacyVersion) {
  for (auto version : legacy_versions()) {
    run_test([version]() -> asio::awaitable<void> {
      auto ex = co_await asio::this_coro::executor;
      client_options options;
      options.versions = {version};
      mcp::client c(ex, legacy_only(options));
      const auto command = bin_command("counter-server");
      auto hello = co_await c.connect(spawn_process(ex, command));
      EXPECT_EQ(hello.version, version);
      co_await c.close();
    });
  }
}

TEST(Stdio, TimeoutCancelsTheServerSideCall) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    const auto command = bin_command("slow-server");
    co_await c.connect(spawn_process(ex, command));
    call_options quick;
    quick.timeout = 200ms;
    bool timed_out = false;
    try {
      auto args = tool_args({{"ms", 5000}});
      co_await c.call_tool("sleep", args, quick);
    } catch (const boost::system::system_error& e) {
      timed_out = e.code() == asio::error::timed_out;
    }
    EXPECT_TRUE(timed_out);
    // The server saw notifications/cancelled and stopped the handler.
    std::string cancelled;
    for (int i = 0; i < 50 && cancelled != "1"; ++i) {
      auto stats = co_await c.call_tool("stats");
      cancelled = first_text(stats);
      co_await sleep_for(20ms);
    }
    EXPECT_EQ(cancelled, "1");
    co_await c.close();
  });
}

TEST(Stdio, ProgressKeepsALongCallAlive) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    const auto command = bin_command("slow-server");
    co_await c.connect(spawn_process(ex, command));
    call_options options;
    options.timeout = 300ms;  // shorter than the call, longer than a progress step
    int updates = 0;
    options.on_progress = [&](const progress_update& p) {
      ++updates;
      EXPECT_EQ(p.total, 1000.0);
    };
    auto args = tool_args({{"ms", 1000}, {"step_ms", 100}});
    auto result = co_await c.call_tool("sleep", args, options);
    EXPECT_EQ(first_text(result), "slept 1000 ms");
    EXPECT_GE(updates, 9);
    co_await c.close();
  });
}

TEST(Stdio, HandlerFailureIsContainedToItsCall) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    mcp::client c(ex, legacy_only());
    const auto command = bin_command("slow-server");
    co_await c.connect(spawn_process(ex, command));
    int code = 0;
    try {
      co_await c.call_tool("crash");
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::internal_error);
    auto args = tool_args({{"ms", 10}});
    auto after = co_await c.call_tool("sleep", args);
    EXPECT_EQ(first_text(after), "slept 10 ms");
    co_await c.close();
  });
}

TEST(Stdio, StrayStdoutAndStderrReachTheClientsStderrSink) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    std::vector<std::string> lines;
    auto options = bin_command("slow-server");
    options.env["CADUCEUS_LOG"] = "info";
    options.on_stderr = [&](std::string_view line) { lines.emplace_back(line); };
    mcp::client c(ex, legacy_only());
    co_await c.connect(spawn_process(ex, options));
    auto args = tool_args({{"line", "hello"}});
    auto result = co_await c.call_tool("shout", args);
    EXPECT_EQ(first_text(result), "shouted");
    co_await c.ping();  // the protocol stream is intact after the stray printf
    co_await c.close();
    auto has = [&](std::string_view needle) {
      return std::ranges::any_of(lines, [&](const std::string& l) { return l.find(needle) != l.npos; });
    };
    EXPECT_TRUE(has("shout: hello"));
    EXPECT_TRUE(has("stray stdout text"));
    EXPECT_TRUE(has("session initialized"));  // CADUCEUS_LOG reached the child
  });
}

TEST(Stdio, HandlersSeeTheEnvironmentTheClientGaveTheServer) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto options = bin_command("slow-server");
    options.env["CADUCEUS_TEST_TOKEN"] = "s3cret";
    mcp::client c(ex, legacy_only());
    co_await c.connect(spawn_process(ex, options));
    auto args = tool_args({{"name", "CADUCEUS_TEST_TOKEN"}});
    auto result = co_await c.call_tool("env", args);
    EXPECT_EQ(first_text(result), "s3cret");
    co_await c.close();
  });
}

// Raw frames over the child's stdin/stdout, as a hostile or sloppy client sends them.
TEST(Stdio, BadInputGetsPreciseErrorsAndServingGoesOn) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto command = bin_command("counter-server");
    auto server = spawn_process(ex, command);
    struct bad_case {
      std::string text;
      std::int64_t code;
      bool null_id;
    };
    const std::vector<bad_case> cases{
        {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}", errc::invalid_request, false},
        {"this is not json", errc::parse_error, true},
        {"[1,2", errc::parse_error, true},
        {"\"a string\"", errc::invalid_request, true},
        {"{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}", errc::invalid_request, false},
        {"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", errc::invalid_request, true},
        {"{\"jsonrpc\":\"2.0\",\"id\":3}", errc::invalid_request, false},
        {"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":7}", errc::invalid_request, false},
        {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"initialize\",\"params\":[]}", errc::invalid_params, false},
        {"{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"initialize\",\"params\":{\"protocolVersion\":1}}",
         errc::invalid_params, false},
        {"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"x\",\"params\":{\"s\":\"\xc3\x28\"}}", errc::parse_error, true},
        {"[]", errc::invalid_request, true},
    };
    for (const auto& c : cases) {
      co_await server->write_frame(c.text);
      auto reply = co_await read_json(*server);
      EXPECT_EQ(reply.at("jsonrpc"), "2.0") << c.text;
      EXPECT_EQ(error_code(reply), c.code) << c.text;
      EXPECT_EQ(reply.at("id").is_null(), c.null_id) << c.text;
    }
    auto hello = rpc_request(10, "initialize", initialize_params("2025-03-26"));
    co_await write_json(*server, hello);
    auto accepted = co_await read_json(*server);
    EXPECT_EQ(accepted.at("result").at("protocolVersion"), "2025-03-26");
    co_await write_json(*server, hello);
    auto again = co_await read_json(*server);
    EXPECT_EQ(error_code(again), errc::invalid_request);
    auto unknown = rpc_request(11, "resources/list");
    co_await write_json(*server, unknown);
    auto not_found = co_await read_json(*server);
    EXPECT_EQ(error_code(not_found), errc::method_not_found);
    co_await server->close();
  });
}

TEST(Stdio, OversizedLineIsRefusedAndTheNextOneServed) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    const auto command = bin_command("counter-server");
    auto server = spawn_process(ex, command);
    std::string huge = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":")" +
                       std::string(default_max_frame_size + 1024, 'x') + R"("}})";
    co_await server->write_frame(std::move(huge));
    auto refused = co_await read_json(*server);
    EXPECT_EQ(error_code(refused), errc::invalid_request);
    auto ping = rpc_request(2, "ping");
    co_await write_json(*server, ping);
    auto reply = co_await read_json(*server);
    EXPECT_EQ(reply.at("id"), 2);
    co_await server->close();
  });
}

TEST(Stdio, RepliesInFlightAtEndOfInputStillArriveThenTheServerExits) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    // The server's stdin ends right after the call: its reply must still come out.
    const auto hello = json::serialize(rpc_request(1, "initialize", initialize_params()));
    const auto call = json::serialize(
        rpc_request(2, "tools/call", {{"name", "sleep"}, {"arguments", {{"ms", 200}}}}));
    process_options options;
    options.command = "sh";
    options.args = {"-c", "printf '%s\\n%s\\n' \"$0\" \"$1\" | \"$2\"", hello, call,
                    test_program("slow-server")};
    auto server = spawn_process(ex, options);
    auto accepted = co_await read_json(*server);
    EXPECT_EQ(accepted.at("id"), 1);
    auto reply = co_await read_json(*server);
    EXPECT_EQ(reply.at("id"), 2);
    EXPECT_EQ(first_text(reply.at("result").as_object()), "slept 200 ms");
    auto end = co_await read_text(*server);
    EXPECT_FALSE(end.has_value());  // then the server exits: end of stream
    co_await server->close();
  });
}

// initialize + initialized, then the server's pid (its `pid` tool).
asio::awaitable<pid_t> start_session_and_ask_pid(message_transport& server) {
  const auto hello = rpc_request(1, "initialize", initialize_params());
  co_await write_json(server, hello);
  co_await read_json(server);
  const auto initialized = rpc_notification("notifications/initialized");
  co_await write_json(server, initialized);
  const auto ask = rpc_request(2, "tools/call", {{"name", "pid"}, {"arguments", json::object{}}});
  co_await write_json(server, ask);
  const auto answer = co_await read_json(server);
  co_return static_cast<pid_t>(std::stol(first_text(answer.at("result").as_object())));
}

TEST(Stdio, ASignalLetsTheCallsInFlightFinishThenTheServerExits) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto server = spawn_process(ex, bin_command("slow-server"));
    const auto pid = co_await start_session_and_ask_pid(*server);
    const auto call = rpc_request(3, "tools/call", {{"name", "sleep"}, {"arguments", {{"ms", 300}}}});
    co_await write_json(*server, call);
    co_await sleep_for(50ms);  // (the call has started)
    ::kill(pid, SIGTERM);
    // Its progress, then its answer, then the end of the server's output.
    json::value reply;
    do {
      reply = co_await read_json(*server);
    } while (!reply.as_object().contains("id"));
    EXPECT_EQ(reply.at("id"), 3);
    EXPECT_EQ(first_text(reply.at("result").as_object()), "slept 300 ms");
    auto end = co_await read_text(*server);
    EXPECT_FALSE(end.has_value());
    co_await server->close();
  });
}

TEST(Stdio, ASecondSignalStopsTheServerWithoutWaitingForItsCalls) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto server = spawn_process(ex, bin_command("slow-server"));
    const auto pid = co_await start_session_and_ask_pid(*server);
    const auto call = rpc_request(3, "tools/call", {{"name", "sleep"}, {"arguments", {{"ms", 60000}}}});
    co_await write_json(*server, call);
    co_await sleep_for(50ms);
    const auto start = std::chrono::steady_clock::now();
    ::kill(pid, SIGTERM);
    co_await sleep_for(100ms);  // (two signals at once may arrive as one)
    ::kill(pid, SIGINT);
    // The cancelled call gets no answer: only its progress, then the end.
    for (;;) {
      auto line = co_await read_text(*server);
      if (!line) break;
      EXPECT_FALSE(json::parse(*line).as_object().contains("id")) << *line;
    }
    // Well before the drain timeout (10 s), let alone the call's minute.
    EXPECT_LT(std::chrono::steady_clock::now() - start, 8s);
    co_await server->close();
  });
}

TEST(Stdio, ShutdownEscalatesToSignalsForAStubbornChild) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    process_options options;
    options.command = "sh";
    options.args = {"-c", "trap '' TERM; sleep 30"};
    options.exit_grace = 200ms;
    options.terminate_grace = 200ms;
    auto child = spawn_process(ex, options);
    const auto start = std::chrono::steady_clock::now();
    co_await child->close();
    EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);  // the graces are 0.2 s each; sleep would take 30 s
  });
}

TEST(Stdio, UnknownProgramFailsToSpawn) {
  asio::io_context io;
  process_options options;
  options.command = "/nonexistent/mcp-server";
  try {
    spawn_process(io.get_executor(), options);
    ADD_FAILURE() << "spawned";
  } catch (const mcp::error& e) {
    EXPECT_EQ(e.code(), boost::system::errc::no_such_file_or_directory) << e.what();
  }
}

TEST(Stdio, SplitCommandLine) {
  EXPECT_EQ(split_command_line("node server.js --port 3"),
            (std::vector<std::string>{"node", "server.js", "--port", "3"}));
  EXPECT_EQ(split_command_line(R"(sh -c 'echo "a b"' x\ y)"),
            (std::vector<std::string>{"sh", "-c", "echo \"a b\"", "x y"}));
  EXPECT_THROW(split_command_line("broken 'quote"), mcp::invalid_argument);
}

}  // namespace
}  // namespace mcp::test
