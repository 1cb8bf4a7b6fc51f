#include "session.hpp"

#include "commands.hpp"
#include "connection.hpp"
#include "failure.hpp"
#include "server_requests.hpp"
#include "sign_in.hpp"
#include "terminal.hpp"
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

asio::awaitable<void> connect_and_configure(mcp::client& client, const invocation& inv, progress_bar& bar,
                                           command_state& state) {
  auto ex = co_await asio::this_coro::executor;
  std::function<void(std::string_view)> note = [&bar](std::string_view line) { bar.note(line); };
  auto transport = co_await open_transport(ex, inv, note);
  co_await client.connect(std::move(transport));
  state.requests->connected(client);
  // notifications/elicitation/complete exists up to 2025-11-25 only. Set
  // after connect, when the era is known: in the 2026-07-28 era a
  // notification callback would open a subscriptions/listen stream for
  // nothing. (watch set its own before connect, and passes them on.)
  if (inv.command != "watch" && !mcp::is_modern(client.server().version))
    client.on_notification([requests = state.requests](const mcp::notification& note) { requests->notice(note); });
  if (inv.log_level && client.server().capabilities.contains("logging")) {
    const auto level = *inv.log_level;
    co_await client.set_logging_level(level);
  }
}

// Connects and runs the command. `||` below waits for the first branch to
// *succeed*, so this one never throws: a failure is reported here and comes
// back as its exit code.
asio::awaitable<int> connect_and_run(mcp::client& client, const invocation& inv, progress_bar& bar,
                                     command_state& state) {
  std::exception_ptr failure;
  try {
    co_await connect_and_configure(client, inv, bar, state);
    co_return co_await run_command(client, inv, bar, state);
  } catch (const mcp::protocol_error& e) {
    state.requests->print_required_urls(e);  // -32042: the pages to open first
    failure = std::current_exception();
  } catch (...) {
    failure = std::current_exception();
  }
  bar.clear();
  const auto cancellation = co_await asio::this_coro::cancellation_state;
  if (cancellation.cancelled() != asio::cancellation_type::none) co_return exit_cancelled;  // Ctrl-C: said by the caller
  co_return report_failure(failure);
}

// Waits for a Ctrl-C that is not an answer to a question (one during a
// dialog cancels that dialog only); reports success even when cancelled,
// which only happens once the command has finished.
asio::awaitable<bool> interrupted(asio::signal_set& signals, terminal& term) {
  for (;;) {
    auto [ec, number] = co_await signals.async_wait(as_tuple_awaitable);
    (void)number;
    if (ec) co_return false;
    if (!term.interrupt()) co_return true;
  }
}

asio::awaitable<void> stop_watching_within(mcp::client& client, command_state& state,
                                           std::chrono::milliseconds limit) {
  using namespace asio::experimental::awaitable_operators;
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(limit);
  auto stopping = stop_watching(client, state);
  auto expiry = timer.async_wait(as_tuple_awaitable);
  co_await (std::move(stopping) || std::move(expiry));
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
  // A question waits for its answer at most --timeout when stdin is not a terminal.
  auto term = std::make_shared<terminal>(ex, bar, inv.timeout.value_or(std::chrono::seconds(30)));
  auto state = std::make_shared<command_state>(ex);
  state->requests = std::make_shared<server_requests>(term, inv);
  mcp::client client(ex, client_options_for(inv));
  if (inv.log_level)
    client.on_log([&bar](const mcp::log_message& message) { bar.note(log_text(message)); });
  state->requests->install(client);
  prepare_command(client, inv, state);

  auto running = connect_and_run(client, inv, bar, *state);
  auto stopped = interrupted(signals, *term);
  const auto outcome = co_await (std::move(running) || std::move(stopped));
  int exit_code = exit_failure;
  if (outcome.index() == 0) {
    exit_code = std::get<0>(outcome);
  } else if (state->watching) {  // the way a watch ends
    co_await stop_watching_within(client, *state, close_limit);
    exit_code = exit_ok;
  } else {
    bar.clear();
    std::cout.flush();
    std::cerr << "cancelled" << std::endl;
    exit_code = exit_cancelled;
  }
  // Sends what is queued (notifications/cancelled after Ctrl-C), then ends
  // the connection: the child process is asked to exit, the HTTP session deleted.
  co_await close_within(client, close_limit);
  term->stop();
  co_return exit_code;
}

}  // namespace caduceus
