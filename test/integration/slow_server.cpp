// A stdio test server for the integration tests: tools that take time, report
// progress, fail, answer at length, or count how often they were cancelled.
//
//   slow-server [--write-timeout-ms N]   (session_options::write_timeout)

#include <mcp/server/behaviour.hpp>
#include <mcp/server/serve.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>

#include <unistd.h>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

json::object text(std::string value) {
  return {{"content", json::array{json::object{{"type", "text"}, {"text", std::move(value)}}}}};
}

class slow_server final : public mcp::server_behaviour {
 public:
  mcp::implementation server_info() const override { return {"slow-server", "1.0.0"}; }
  json::object capabilities() const override { return {{"tools", json::object{}}}; }

  asio::awaitable<json::object> handle_request(const mcp::request& req,
                                               mcp::request_context& ctx) override {
    if (req.method == "tools/list") co_return json::object{{"tools", json::array{}}};
    if (req.method != "tools/call")
      throw mcp::protocol_error(mcp::errc::method_not_found, "Method not found: " + req.method);
    const auto& name = req.params.at("name").as_string();
    const auto* args = req.params.if_contains("arguments");
    if (name == "sleep") co_return co_await sleep(args->as_object(), ctx);
    if (name == "crash") throw std::runtime_error("the tool crashed");
    if (name == "stats") co_return text(std::to_string(cancelled_));
    if (name == "big") co_return text(std::string(args->at("bytes").to_number<std::size_t>(), 'b'));
    if (name == "pid") co_return text(std::to_string(::getpid()));  // for tests that signal it
    if (name == "env") {
      const auto& environment = ctx.session().transport().environment;
      const auto it = environment.find(std::string(args->at("name").as_string()));
      co_return text(it == environment.end() ? "(unset)" : it->second);
    }
    if (name == "shout") {
      std::fprintf(stderr, "shout: %s\n", args->at("line").as_string().c_str());
      std::printf("stray stdout text from a careless tool\n");  // must not reach the client
      std::fflush(stdout);
      co_return text("shouted");
    }
    throw mcp::protocol_error(mcp::errc::invalid_params, "Unknown tool: " + std::string(name));
  }

 private:
  asio::awaitable<json::object> sleep(const json::object& args, mcp::request_context& ctx) {
    const auto total = std::chrono::milliseconds(args.at("ms").to_number<int>());
    const auto step = std::chrono::milliseconds(args.contains("step_ms") ? args.at("step_ms").to_number<int>() : 50);
    asio::steady_timer timer(co_await asio::this_coro::executor);
    try {
      for (auto done = std::chrono::milliseconds(0); done < total; done += step) {
        co_await ctx.progress(double(done.count()), double(total.count()));
        timer.expires_after(step);
        co_await timer.async_wait(asio::use_awaitable);
      }
    } catch (...) {
      if (ctx.cancelled()) ++cancelled_;
      throw;
    }
    co_return text("slept " + std::to_string(total.count()) + " ms");
  }

  int cancelled_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  mcp::session_options options;
  if (argc == 3 && std::string_view(argv[1]) == "--write-timeout-ms")
    options.write_timeout = std::chrono::milliseconds(std::stoi(argv[2]));
  slow_server server;
  return mcp::run_stdio_server(server, options);
}
