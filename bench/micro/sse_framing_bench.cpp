// SSE framing of one reply, as the HTTP server writes it on a stream.

#include "transport/http/server/sse.hpp"

#include <benchmark/benchmark.h>

namespace {

void frame_echo_reply(benchmark::State& state) {
  const std::string reply = R"({"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"bench 42"}]}})";
  for (auto _ : state) {
    auto event = mcp::detail::sse_event("8066698aa2f0_1", reply);
    benchmark::DoNotOptimize(event);
  }
}
BENCHMARK(frame_echo_reply);

void frame_multiline_payload(benchmark::State& state) {  // every line gets its own data: field
  std::string payload;
  for (int line = 0; line < 16; ++line) payload += R"({"line":)" + std::to_string(line) + "}\n";
  for (auto _ : state) {
    auto event = mcp::detail::sse_event("8066698aa2f0_2", payload);
    benchmark::DoNotOptimize(event);
  }
}
BENCHMARK(frame_multiline_payload);

}  // namespace
