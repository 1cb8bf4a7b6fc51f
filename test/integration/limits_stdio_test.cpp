// The stdio server's limits under hostile input (docs/limits.md), through a
// real pipe to a real server process (slow-server): every frame is answered
// or refused with the documented error, the connection goes on serving, and
// the server's memory (its VmRSS) stays bounded.

#include "hostile_json.hpp"
#include "process_memory.hpp"
#include "test_support.hpp"

#include <mcp/protocol/errors.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

// slow-server, initialized, over its stdin and stdout; `pid` is its process.
struct stdio_server {
  std::unique_ptr<message_transport> pipe;
  pid_t pid = 0;

  static asio::awaitable<stdio_server> start(std::vector<std::string> args = {}) {
    stdio_server server;
    auto command = bin_command("slow-server");
    command.args = std::move(args);
    server.pipe = spawn_process(co_await asio::this_coro::executor, std::move(command));
    const auto init = rpc_request(0, "initialize", initialize_params());
    co_await write_json(*server.pipe, init);
    const auto hello = co_await read_json(*server.pipe);
    if (!hello.as_object().contains("result")) throw std::runtime_error("initialize failed");
    const auto initialized = rpc_notification("notifications/initialized");
    co_await write_json(*server.pipe, initialized);
    const auto ask = rpc_request(1, "tools/call", json::object{{"name", "pid"}, {"arguments", json::object{}}});
    co_await write_json(*server.pipe, ask);
    const auto pid = co_await read_json(*server.pipe);
    server.pid = static_cast<pid_t>(std::stol(first_text(pid.at("result").as_object())));
    co_return server;
  }

  /// Writes `text` as one line and reads the answer.
  asio::awaitable<json::value> exchange(std::string text, std::chrono::milliseconds limit = 20s) {
    co_await pipe->write_frame(std::move(text));
    co_return co_await read_json(*pipe, limit);
  }

  /// A ping still answered: the connection serves on.
  asio::awaitable<bool> still_serves() {
    const auto ping = rpc_request("after", "ping");
    co_await write_json(*pipe, ping);
    const auto pong = co_await read_json(*pipe);
    co_return pong.at("id") == "after" && pong.as_object().contains("result");
  }

  asio::awaitable<void> stop() { co_await pipe->close(); }

  /// Whether the process has ended: gone, or a zombie not yet reaped.
  bool ended() const {
    std::ifstream stat(proc_file(pid, "stat"));
    std::string line;
    if (!std::getline(stat, line)) return true;
    const auto state = line.rfind(") ");  // after the command's name, which may hold anything
    return state == std::string::npos || line[state + 2] == 'Z' || line[state + 2] == 'X';
  }
};


TEST(LimitsStdio, TenThousandRequestsWrittenBeforeAnyAnswerIsReadAreAllAnswered) {
  run_test(
      []() -> asio::awaitable<void> {
        auto server = co_await stdio_server::start();
        const memory_watch memory(server.pid);
        // Every request at once, in one write of 1.2 MB: far more than the
        // pipe holds and than max_requests_in_flight (256). The server must
        // keep reading while its answers wait for us, or this write never ends.
        constexpr int requests = 10'000;
        std::vector<std::string> frames;
        for (int id = 1; id <= requests; ++id) {
          const auto request =
              id % 2 ? rpc_request(id, "ping")
                     : rpc_request(id, "tools/call",
                                   json::object{{"name", "sleep"}, {"arguments", json::object{{"ms", 5}, {"step_ms", 5}}}});
          frames.push_back(json::serialize(request));
        }
        const auto started = std::chrono::steady_clock::now();
        co_await server.pipe->write_frames(std::move(frames));
        std::set<std::int64_t> answered;
        int errors = 0;
        for (int n = 0; n < requests; ++n) {
          const auto reply = co_await read_json(*server.pipe, 20s);
          const auto& object = reply.as_object();
          if (object.contains("method")) continue;  // (no progress is asked for, but a notification would be fine)
          answered.insert(reply.at("id").as_int64());
          if (!object.contains("result")) ++errors;
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        EXPECT_EQ(answered.size(), std::size_t(requests));
        EXPECT_EQ(*answered.begin(), 1);
        EXPECT_EQ(*answered.rbegin(), requests);
        EXPECT_EQ(errors, 0);
        report_measured("10,000 requests piped at once: answered in", seconds, "s");
        expect_peak_growth_under(memory, 64, "10,000 requests piped at once: server");
        const bool serves = co_await server.still_serves();
        EXPECT_TRUE(serves);
        co_await server.stop();
      },
      60s);
}

TEST(LimitsStdio, JsonNestedAHundredThousandDeepIsAParseError) {
  run_test([]() -> asio::awaitable<void> {
    auto server = co_await stdio_server::start();
    const memory_watch memory(server.pid);
    const std::vector<std::string> lines{
        nested("[", "", "]", 100'000),
        nested(R"({"a":)", "1", "}", 100'000),
        R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"deep":)" + nested("[", "", "]", 100'000) + "}}",
    };
    for (const auto& line : lines) {
      const auto reply = co_await server.exchange(line);
      EXPECT_EQ(error_code(reply), errc::parse_error) << json::serialize(reply);
      EXPECT_TRUE(reply.at("id").is_null());
    }
    const bool serves = co_await server.still_serves();
    EXPECT_TRUE(serves);
    expect_peak_growth_under(memory, 16, "JSON nested 100,000 deep over stdio: server");
    co_await server.stop();
  });
}

TEST(LimitsStdio, HugeIdsAndStringsAreEchoedOrRefused) {
  run_test([]() -> asio::awaitable<void> {
    auto server = co_await stdio_server::start();
    const memory_watch memory(server.pid);
    // A 1 MiB string id: echoed.
    const std::string long_id(mebibyte, 'i');
    const auto ping = json::serialize(rpc_request(json::value(long_id), "ping"));
    const auto echoed = co_await server.exchange(ping);
    EXPECT_EQ(echoed.at("id"), json::value(long_id));
    EXPECT_TRUE(echoed.as_object().contains("result"));
    // A number beyond what JSON numbers are read into: a parse error.
    const std::string overflow = R"({"jsonrpc":"2.0","id":1e400,"method":"ping"})";
    const auto unreadable = co_await server.exchange(overflow);
    EXPECT_EQ(error_code(unreadable), errc::parse_error) << json::serialize(unreadable);
    // Numbers that cannot be ids: invalid request, null id.
    for (const std::string number : {"18446744073709551616", "1.5"}) {
      auto line = R"({"jsonrpc":"2.0","id":)" + number + R"(,"method":"ping"})";
      const auto reply = co_await server.exchange(std::move(line));
      EXPECT_EQ(error_code(reply), errc::invalid_request) << number << ": " << json::serialize(reply);
      EXPECT_TRUE(reply.at("id").is_null()) << number;
    }
    // A 3 MiB string argument: read, and answered.
    const std::string big(3 * mebibyte, 's');
    const auto call = json::serialize(
        rpc_request(2, "tools/call", json::object{{"name", "env"}, {"arguments", json::object{{"name", big}}}}));
    const auto answer = co_await server.exchange(call);
    EXPECT_EQ(first_text(answer.at("result").as_object()), "(unset)");
    // A line over max_frame_size (4 MiB): dropped unread, and refused.
    const auto over = json::serialize(rpc_request(3, "ping", json::object{{"pad", std::string(5 * mebibyte, 'o')}}));
    const auto refused = co_await server.exchange(over);
    EXPECT_EQ(error_code(refused), errc::invalid_request) << json::serialize(refused).substr(0, 300);
    const bool serves = co_await server.still_serves();
    EXPECT_TRUE(serves);
    expect_peak_growth_under(memory, 64, "huge ids and strings over stdio: server");
    co_await server.stop();
  });
}

TEST(LimitsStdio, AMillionElementArrayIsAnswered) {
  run_test([]() -> asio::awaitable<void> {
    auto server = co_await stdio_server::start();
    auto zeros = array_of(1'000'000, "0");
    const memory_watch memory(server.pid);
    auto line = R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":)" + zeros + "}}";
    const auto reply = co_await server.exchange(std::move(line));
    EXPECT_EQ(reply.at("id"), 1);
    EXPECT_TRUE(reply.as_object().contains("result"));
    expect_peak_growth_under(memory, 64, "a million-element array over stdio: server");
    co_await server.stop();
  });
}

TEST(LimitsStdio, AClientThatStopsReadingIsCutOffByTheWriteTimeout) {
  run_test(
      []() -> asio::awaitable<void> {
        std::vector<std::string> args{"--write-timeout-ms", "1000"};  // (not braced in the call: docs/compilers.md)
        auto server = co_await stdio_server::start(std::move(args));
        const auto started = std::chrono::steady_clock::now();
        // A 4 MiB answer, of which the pipe takes 64 KiB, and we read none of it.
        const auto call = rpc_request(2, "tools/call",
                                      json::object{{"name", "big"}, {"arguments", json::object{{"bytes", 4 * mebibyte}}}});
        co_await write_json(*server.pipe, call);
        while (!server.ended() && std::chrono::steady_clock::now() - started < 20s) co_await sleep_for(20ms);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (!server.ended()) {
          ADD_FAILURE() << "the server still waits on a client that reads nothing, " << seconds << " s on";
          co_await server.stop();
          co_return;
        }
        EXPECT_GE(seconds, 1.0) << "cut off before its write_timeout";
        report_measured("a stdio client that reads nothing: the server ended after", seconds, "s");
        // What got through before the cut is the start of the answer, no more
        // than the pipe held; then the output ends.
        const auto cut = co_await server.pipe->read_frame();
        const std::string got = cut ? cut->text : "";
        EXPECT_LT(got.size(), mebibyte);
        EXPECT_TRUE(got.starts_with(R"({"jsonrpc":"2.0","id":2,"result")")) << got.substr(0, 100);
        report_measured("a stdio client that reads nothing: bytes of the answer that got through", double(got.size()), "B");
        const auto end = co_await server.pipe->read_frame();
        EXPECT_FALSE(end.has_value());
        co_await server.stop();
      },
      60s);
}

}  // namespace
}  // namespace mcp::test
