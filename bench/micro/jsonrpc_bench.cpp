// JSON-RPC parse and serialize: what every frame in and every reply out costs.

#include <mcp/protocol/jsonrpc.hpp>

#include <benchmark/benchmark.h>

namespace {

constexpr std::string_view echo_call =
    R"({"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"bench 42"}}})";

void parse_tools_call(benchmark::State& state) {
  for (auto _ : state) {
    auto frame = mcp::parse_frame(echo_call);
    benchmark::DoNotOptimize(frame);
  }
}
BENCHMARK(parse_tools_call);

void serialize_echo_result(benchmark::State& state) {
  const mcp::message reply = mcp::response{
      42, mcp::json::object{{"content", mcp::json::array{mcp::json::object{{"type", "text"}, {"text", "bench 42"}}}}}};
  for (auto _ : state) {
    auto text = mcp::serialize(reply);
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(serialize_echo_result);

}  // namespace
