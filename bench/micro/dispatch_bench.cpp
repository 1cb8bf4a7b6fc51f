// One tools/call echo through the engine and back: parse, lifecycle checks,
// dispatch to the tool, argument validation and conversion, the handler, the
// reply's serialization and its write; the transport is an in-memory pair, so
// no I/O is counted. Once with everything-server's echo (a plain function,
// run on the server's worker pool), once with the same tool as a coroutine
// (run on the session's executor).

#include "everything_demo.hpp"

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include <benchmark/benchmark.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/describe/class.hpp>

namespace asio = boost::asio;

namespace {

struct echo_args {
  std::string text;
};
BOOST_DESCRIBE_STRUCT(echo_args, (), (text))

constexpr std::string_view initialize =
    R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}})";
constexpr std::string_view initialized = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";
constexpr std::string_view echo_call =
    R"({"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"bench 42"}}})";

asio::awaitable<void> call_echo(benchmark::State& state, mcp::message_transport& client) {
  std::string hello(initialize);  // named: see docs/compilers.md
  co_await client.write_frame(std::move(hello));
  auto handshake = co_await client.read_frame();
  if (!handshake || handshake->text.find("\"result\"") == std::string::npos) {
    state.SkipWithError("initialize failed");
    co_return;
  }
  std::string ready(initialized);
  co_await client.write_frame(std::move(ready));
  for (auto _ : state) {
    std::string call(echo_call);
    co_await client.write_frame(std::move(call));
    auto reply = co_await client.read_frame();
    benchmark::DoNotOptimize(reply);
  }
  co_await client.close();
}

void measure(benchmark::State& state, mcp::server& srv) {
  asio::io_context io;
  auto [client, server_end] = mcp::make_memory_pair(io.get_executor());
  asio::co_spawn(io, mcp::serve(srv, *server_end), asio::detached);
  asio::co_spawn(io, call_echo(state, *client), [](std::exception_ptr e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
}

void dispatch_echo_plain_function(benchmark::State& state) {
  mcp::server srv(demo::info(), demo::settings());
  demo::add_everything(srv);
  measure(state, srv);
}
BENCHMARK(dispatch_echo_plain_function)->UseRealTime();

void dispatch_echo_coroutine(benchmark::State& state) {
  mcp::server srv(demo::info(), demo::settings());
  srv.add_tool("echo", "Echoes the text back",
               [](const echo_args& a) -> asio::awaitable<std::string> { co_return a.text; });
  measure(state, srv);
}
BENCHMARK(dispatch_echo_coroutine)->UseRealTime();

}  // namespace
