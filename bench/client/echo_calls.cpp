#include "echo_calls.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/json/serialize.hpp>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace bench_client {

namespace {

namespace json = boost::json;

std::optional<std::string> problem_with(const mcp::call_tool_result& result, const std::string& text) {
  const auto as_text = [&] { return json::serialize(result.to_json()).substr(0, 200); };
  if (result.is_error) return "isError: " + as_text();
  if (result.content.size() != 1) return "not one content block: " + as_text();
  const auto* block = result.content.front().if_object();
  const auto* type = block ? block->if_contains("type") : nullptr;
  const auto* echoed = block ? block->if_contains("text") : nullptr;
  const auto is = [](const json::value* v, std::string_view s) { return v && v->is_string() && v->get_string() == s; };
  if (!is(type, "text") || !is(echoed, text)) return "not the text sent (" + text + "): " + as_text();
  return std::nullopt;
}

struct shared_state {
  clients& connected;
  loadgen::load_run& run;
  std::function<void()> done;
  std::size_t callers = 0;
  std::uint64_t next_text = 0;
};

asio::awaitable<void> caller(std::shared_ptr<shared_state> state) {
  auto& run = state->run;
  while (run.issuing()) {
    std::string text = "echo-" + std::to_string(state->next_text++);
    json::object arguments{{"text", text}};
    const auto sent_at = loadgen::clock::now();
    run.sent();
    try {
      const auto result = co_await state->connected.next().call_tool("echo", std::move(arguments));
      if (auto problem = problem_with(result, text)) run.failed(std::move(*problem));
      else run.replied(sent_at);
    } catch (const std::exception& e) {
      run.failed("no result: " + loadgen::describe(e), 1, false);
      break;
    }
  }
  run.worker_finished();
  if (--state->callers == 0) state->done();
}

}  // namespace

void start_echo_calls(asio::any_io_executor ex, clients& c, std::size_t window, loadgen::load_run& run,
                      std::function<void()> done) {
  auto state = std::make_shared<shared_state>(shared_state{c, run, std::move(done), window, 0});
  for (std::size_t i = 0; i < window; ++i) {
    run.worker_started();
    asio::co_spawn(ex, caller(state), asio::detached);
  }
}

}  // namespace bench_client
