// progress-tool: a coroutine tool that reports progress and stops when the
// client cancels the call (notifications/cancelled aborts whatever it awaits).
//
//   build/bin/progress-tool     (MCP over stdio)

#include <mcp/server/serve.hpp>
#include <mcp/server/server.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/describe.hpp>

namespace asio = boost::asio;

struct count_args {
  int to = 10;
};
BOOST_DESCRIBE_STRUCT(count_args, (), (to))

int main() {
  mcp::server srv({"progress-demo", "1.0.0"});
  srv.add_tool("count", "Counts slowly, reporting progress",
               [](count_args a, mcp::request_context& ctx) -> asio::awaitable<std::string> {
                 asio::steady_timer tick(co_await asio::this_coro::executor);
                 for (int i = 1; i <= a.to; ++i) {
                   tick.expires_after(std::chrono::milliseconds(200));
                   co_await tick.async_wait(asio::use_awaitable);  // throws when cancelled
                   co_await ctx.progress(i, a.to, "counted " + std::to_string(i));
                 }
                 co_return "counted to " + std::to_string(a.to);
               });
  return mcp::run_stdio_server(srv);
}
