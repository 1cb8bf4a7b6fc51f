#pragma once
// What the HTTP integration tests share: a server with a few tools on
// 127.0.0.1 (port 0), stopped and awaited however a test ends, and helpers
// that open sessions and build calls.

#include <mcp/server/http_server.hpp>
#include <mcp/server/server.hpp>

#include "http_client.hpp"
#include "test_support.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/describe/class.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>
#include <functional>
#include <memory>
#include <string>

namespace mcp::test {

using clock_type = std::chrono::steady_clock;

inline constexpr std::string_view version_header = "MCP-Protocol-Version";

// The tools every test server has: a quick echo, a counter that reports
// progress (~100 ms by default), a tool that logs, and one that reads a
// request header.
// What the tally tool keeps in its session: a described struct, so it
// follows the session to every server of a cluster.
struct tally_state {
  int calls = 0;
  std::vector<std::string> callers;
};
BOOST_DESCRIBE_STRUCT(tally_state, (), (calls, callers))

inline std::unique_ptr<mcp::server> make_tools() {
  auto srv = std::make_unique<mcp::server>(mcp::implementation{"http-test", "1.0.0"});

  mcp::tool_info echo;
  echo.name = "echo";
  echo.description = "Says the text back";
  echo.input_schema = json::parse(R"({"type":"object","properties":{"text":{"type":"string"}},"required":["text"]})")
                          .as_object();
  srv->add_tool(echo, [](const json::object& args, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
    co_return mcp::call_tool_result::text(std::string(args.at("text").as_string()));
  });

  mcp::tool_info header;
  header.name = "header";
  header.description = "Says the value of the named HTTP header";
  header.input_schema =
      json::parse(R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})").as_object();
  srv->add_tool(header, [](const json::object& args, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
    const auto value = ctx.session().transport().headers.find(args.at("name").as_string());
    co_return mcp::call_tool_result::text(value ? std::string(*value) : "(none)");
  });

  mcp::tool_info count;
  count.name = "count";
  count.description = "Counts `steps` steps of `step_ms`, reporting progress after each";
  count.input_schema = json::parse(
      R"({"type":"object","properties":{"steps":{"type":"integer"},"step_ms":{"type":"integer"}}})")
                           .as_object();
  srv->add_tool(count, [](const json::object& args, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
    const int steps = args.contains("steps") ? args.at("steps").to_number<int>() : 4;
    const std::chrono::milliseconds step(args.contains("step_ms") ? args.at("step_ms").to_number<int>() : 25);
    asio::steady_timer timer(co_await asio::this_coro::executor);
    for (int i = 1; i <= steps; ++i) {
      timer.expires_after(step);
      co_await timer.async_wait(asio::use_awaitable);
      const double done = i;
      const std::optional<double> total = steps;
      const std::string message = "step " + std::to_string(i);
      co_await ctx.progress(done, total, message);
    }
    co_return mcp::call_tool_result::text("counted to " + std::to_string(steps));
  });

  mcp::tool_info log;
  log.name = "log";
  log.description = "Logs a line, then answers";
  srv->add_tool(log, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
    const json::value data = "a line from the tool";
    co_await ctx.log(mcp::logging_level::info, data, "http-test");
    co_return mcp::call_tool_result::text("logged");
  });
  mcp::tool_info release;
  release.name = "release";
  release.description = "Reports progress, lets its stream's connection go (SSE polling), "
                        "reports more progress every `step_ms` (default 30), then answers";
  srv->add_tool(release, [](const json::object& args, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
    const std::chrono::milliseconds step_time(args.contains("step_ms") ? args.at("step_ms").to_number<int>() : 30);
    asio::steady_timer timer(co_await asio::this_coro::executor);
    const std::optional<double> total = 3.0;
    co_await ctx.progress(1.0, total, "before");
    ctx.close_stream();
    for (double step = 2; step <= 3; ++step) {
      timer.expires_after(step_time);
      co_await timer.async_wait(asio::use_awaitable);
      co_await ctx.progress(step, total, "after");
    }
    co_return mcp::call_tool_result::text("released and done");
  });

  mcp::tool_info confirm;
  confirm.name = "confirm";
  confirm.description = "Asks the user to go on (elicitation), then says their action";
  srv->add_tool(confirm, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
    std::string question = "Go on?";
    auto schema = json::parse(R"({"type":"object","properties":{"ok":{"type":"boolean"}}})").as_object();
    const auto answer = co_await ctx.elicit(std::move(question), std::move(schema));
    co_return mcp::call_tool_result::text(std::string(answer.at("action").as_string()));
  });

  mcp::tool_info tally;
  tally.name = "tally";
  tally.description = "Counts its calls in the session's state (a described struct: shared in a cluster)";
  srv->add_tool(tally, [](const json::object&, mcp::request_context& ctx) -> asio::awaitable<mcp::call_tool_result> {
    auto& state = ctx.session().state<tally_state>();
    ++state.calls;
    state.callers.push_back(std::string(ctx.session().client_info().name));
    co_return mcp::call_tool_result::text(std::to_string(state.calls));
  });

  mcp::tool_info slow;
  slow.name = "slow";
  slow.description = "Answers after `ms` milliseconds (default 300)";
  srv->add_tool(slow, [](const json::object& args, mcp::request_context&) -> asio::awaitable<mcp::call_tool_result> {
    const std::chrono::milliseconds ms(args.contains("ms") ? args.at("ms").to_number<int>() : 300);
    asio::steady_timer timer(co_await asio::this_coro::executor, ms);
    co_await timer.async_wait(asio::use_awaitable);
    co_return mcp::call_tool_result::text("slept " + std::to_string(ms.count()) + " ms");
  });
  return srv;
}

// The threads test servers run on: CADUCEUS_TEST_SERVER_THREADS (the
// ThreadSanitizer job sets 4); unset, the test's own thread.
inline unsigned test_server_threads() {
  const char* value = std::getenv("CADUCEUS_TEST_SERVER_THREADS");
  const int n = value ? std::atoi(value) : 0;
  return n > 1 ? static_cast<unsigned>(n) : 1;
}

// An io_context of a server's own, run by `n` threads until join().
class server_threads {
 public:
  explicit server_threads(unsigned n) : io_(static_cast<int>(n)), work_(io_.get_executor()) {
    for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this] {
      io_.run();
      ++finished_;
    });
  }
  ~server_threads() { join(); }
  // The threads end (the io_context stays, with what is left in it).
  void join() {
    if (threads_.empty()) return;
    work_.reset();
    // What is left (connections closing) ends by itself; a bounded wait, then stop.
    const auto until = clock_type::now() + 5s;
    while (finished_ < threads_.size() && clock_type::now() < until) std::this_thread::sleep_for(5ms);
    io_.stop();
    for (auto& t : threads_) t.join();
    threads_.clear();
  }
  asio::any_io_executor executor() { return io_.get_executor(); }

 private:
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> work_;
  std::vector<std::thread> threads_;
  std::atomic<std::size_t> finished_ = 0;
};

// An http_server serving make_tools() on 127.0.0.1, port 0, running from
// construction, on the test's executor or on threads of its own
// (test_server_threads()); stop_and_wait() stops it and waits for run() and
// every session to end (the tools must outlive the sessions).
struct test_server {
  struct run_state {
    std::atomic<bool> returned = false;
    std::exception_ptr failure;  // written before `returned`
  };

  /// `threads`: more than one runs the server on threads of its own.
  test_server(asio::any_io_executor ex, http_server_options options, unsigned threads = test_server_threads())
      : own(threads > 1 ? std::make_unique<server_threads>(threads) : nullptr),
        tools(make_tools()),
        http(own ? own->executor() : ex, *tools, with_threads(std::move(options), threads)),
        state(std::make_shared<run_state>()) {
    asio::co_spawn(own ? own->executor() : ex, http.run(), [st = state](std::exception_ptr e) {
      st->failure = e;
      st->returned = true;
    });
  }

  ~test_server() {
    if (own) own->join();  // its threads end before the tools go
  }

  static http_server_options with_threads(http_server_options options, unsigned threads) {
    if (threads > 1) options.threads = threads;
    return options;
  }

  std::uint16_t port() const { return http.local_port(); }

  asio::awaitable<void> stop_and_wait() {
    http.stop();
    const std::function<bool()> ended = [this] { return state->returned && http.session_count() == 0; };
    const bool prompt = co_await wait_until(ended, 5s);
    EXPECT_TRUE(state->returned) << "run() did not return after stop()";
    EXPECT_TRUE(prompt) << http.session_count() << " sessions still running 5 s after stop()";
    if (!prompt) co_await wait_until(ended, 15s);  // the tools must outlive the sessions
    if (state->failure) ADD_FAILURE() << "run() threw";
  }

  std::unique_ptr<server_threads> own;  // first: the server and the tools go before its io_context
  std::unique_ptr<mcp::server> tools;
  mcp::http_server http;
  std::shared_ptr<run_state> state;
};

using http_test_body = std::function<asio::awaitable<void>(test_server&)>;

/// run_test with a test_server: the server is stopped (and its sessions
/// awaited) however the body ends.
inline void run_http_test(http_server_options options, http_test_body body, std::chrono::milliseconds limit = 20s) {
  run_test(
      [&]() -> asio::awaitable<void> {
        auto ex = co_await asio::this_coro::executor;
        test_server server(ex, options);
        std::exception_ptr failure;
        try {
          co_await body(server);
        } catch (...) {
          failure = std::current_exception();
        }
        co_await server.stop_and_wait();
        if (failure) std::rethrow_exception(failure);
      },
      limit);
}

inline void run_http_test(http_test_body body) { run_http_test(http_server_options{}, std::move(body)); }

/// A POST in an open session, with the version header a client sends after initialize.
inline http_request session_post(const json::value& message, const std::string& session_id) {
  auto req = mcp_post(message, session_id);
  req.header(std::string(version_header), "2025-11-25");
  return req;
}

/// Initializes a session on `c` and sends notifications/initialized; returns its id.
inline asio::awaitable<std::string> open_session(http_connection& c, std::string version = "2025-11-25") {
  const auto init = rpc_request(0, "initialize", initialize_params(std::move(version)));
  const auto req = mcp_post(init);
  const auto reply = co_await c.send(req);
  if (reply.status != 200) throw std::runtime_error("initialize answered " + std::to_string(reply.status));
  auto id = reply.header("Mcp-Session-Id");
  if (id.empty()) throw std::runtime_error("initialize gave no Mcp-Session-Id");
  const auto initialized = rpc_notification("notifications/initialized");
  const auto note = session_post(initialized, id);
  const auto ack = co_await c.send(note);
  if (ack.status != 202) throw std::runtime_error("notifications/initialized answered " + std::to_string(ack.status));
  co_return id;
}

inline json::object tool_call(std::string name, json::object arguments, json::value progress_token = nullptr) {
  json::object params{{"name", std::move(name)}, {"arguments", std::move(arguments)}};
  if (!progress_token.is_null()) params["_meta"] = json::object{{"progressToken", std::move(progress_token)}};
  return params;
}

/// A 2026-07-28 POST of `method`: the envelope in `params._meta` (`version`,
/// a clientInfo, `capabilities`) and the routing headers that go with it
/// (MCP-Protocol-Version, Mcp-Method, and Mcp-Name from params.name or uri).
inline http_request modern_post(json::value id, const std::string& method, json::object params,
                                json::object capabilities = {}, const std::string& version = "2026-07-28") {
  std::string name;
  if (const auto* named = params.if_contains("name")) name = named->as_string();
  else if (const auto* uri = params.if_contains("uri")) name = uri->as_string();
  params["_meta"] = json::object{{"io.modelcontextprotocol/protocolVersion", version},
                                 {"io.modelcontextprotocol/clientInfo", {{"name", "test-client"}, {"version", "1.0"}}},
                                 {"io.modelcontextprotocol/clientCapabilities", std::move(capabilities)}};
  auto req = mcp_post(rpc_request(std::move(id), method, params));
  req.header(std::string(version_header), version).header("Mcp-Method", method);
  if (!name.empty()) req.header("Mcp-Name", std::move(name));
  return req;
}

inline json::object echo_call(json::value id, std::string text) {
  auto params = tool_call("echo", json::object{{"text", std::move(text)}});
  return rpc_request(std::move(id), "tools/call", std::move(params));
}

/// A ping in session `id`: the status of its POST.
inline asio::awaitable<unsigned> ping_status(std::uint16_t port, const std::string& session_id) {
  const auto ping = rpc_request(99, "ping");
  const auto req = session_post(ping, session_id);
  const auto reply = co_await http_call(port, req);
  co_return reply.status;
}

}  // namespace mcp::test
