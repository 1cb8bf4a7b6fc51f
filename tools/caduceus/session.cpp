#include "session.hpp"

#include "commands.hpp"
#include "connection.hpp"
#include "failure.hpp"
#include "sign_in.hpp"
#include "text_output.hpp"

#include <mcp/client/client.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/experimental/awaitable_operators.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <csignal>
#include <iostream>

namespace caduceus {

namespace {

namespace asio = boost::asio;
using namespace std::chrono_literals;

constexpr auto as_tuple_awaitable = asio::as_tuple(asio::use_awaitable);

// The most closing may take (a child process gets 2 s to exit, then SIGTERM
// and 2 s more; HTTP sends its DELETE within 2 s).
constexpr auto close_limit = 6s;

asio::awaitable<void> connect_and_configure(mcp::client& client, const invocation& inv, progress_bar& bar) {
  auto ex = co_await asio::this_coro::executor;
  auto transport = co_await open_transport(ex, inv, bar);
  co_await client.connect(std::move(transport));
  if (inv.log_level && client.server().capabilities.contains("logging")) {
    const auto level = *inv.log_level;
    co_await client.set_logging_level(level);
  }
}

// Connects and runs the command. `||` below waits for the first branch to
// *succeed*, so this one never throws: a failure is reported here and comes
// back as its exit code.
asio::awaitable<int> connect_and_run(mcp::client& client, const invocation& inv, progress_bar& bar) {
  std::exception_ptr failure;
  try {
    co_await connect_and_configure(client, inv, bar);
    co_return co_await run_command(client, inv, bar);
  } catch (...) {
    failure = std::current_exception();
  }
  bar.clear();
  const auto state = co_await asio::this_coro::cancellation_state;
  if (state.cancelled() != asio::cancellation_type::none) co_return exit_cancelled;  // Ctrl-C: said by the caller
  co_return report_failure(failure);
}

// Waits for Ctrl-C; reports success even when cancelled, which only happens
// once the command has finished.
asio::awaitable<bool> interrupted(asio::signal_set& signals) {
  auto [ec, number] = co_await signals.async_wait(as_tuple_awaitable);
  (void)number;
  co_return !ec;
}

asio::awaitable<void> close_within(mcp::client& client, std::chrono::milliseconds limit) {
  using namespace asio::experimental::awaitable_operators;
  auto close = [&client]() -> asio::awaitable<bool> {
    try {
      co_await client.close();
    } catch (const std::exception&) {
    }
    co_return true;
  };
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(limit);
  co_await (close() || timer.async_wait(as_tuple_awaitable));
}

}  // namespace

asio::awaitable<int> run_session(const invocation& inv, progress_bar& bar) {
  using namespace asio::experimental::awaitable_operators;
  if (inv.command == "logout") co_return logout(inv);
  if (inv.command == "login") co_return co_await login(inv);
  auto ex = co_await asio::this_coro::executor;
  asio::signal_set signals(ex, SIGINT);
  mcp::client client(ex, client_options_for(inv));
  if (inv.log_level)
    client.on_log([&bar](const mcp::log_message& message) { bar.note(log_text(message)); });

  const auto outcome = co_await (connect_and_run(client, inv, bar) || interrupted(signals));
  int exit_code = exit_failure;
  if (outcome.index() == 0) {
    exit_code = std::get<0>(outcome);
  } else {
    bar.clear();
    std::cout.flush();
    std::cerr << "cancelled" << std::endl;
    exit_code = exit_cancelled;
  }
  // Sends what is queued (notifications/cancelled after Ctrl-C), then ends
  // the connection: the child process is asked to exit, the HTTP session deleted.
  co_await close_within(client, close_limit);
  co_return exit_code;
}

}  // namespace caduceus
