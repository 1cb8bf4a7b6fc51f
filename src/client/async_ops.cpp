// detail::launch: the one place where the client's completion-token forms
// (client::async_..., mcp/client/impl/async_calls.hpp) start their coroutine,
// compiled here once per result type.

#include <mcp/client/client.hpp>
#include <mcp/client/skills.hpp>

#include "../detail/completion.hpp"

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/this_coro.hpp>

#include <memory>

namespace mcp::detail {

namespace {

/// `operation`, taking every cancellation type (partial, total, terminal)
/// as terminal: a request that was sent cannot be taken back, only told to
/// stop (notifications/cancelled), which the client's calls do on a terminal
/// cancellation.
template <class Result>
asio::awaitable<Result> cancelled_as_terminal(asio::awaitable<Result> operation) {
  co_await asio::this_coro::reset_cancellation_state([](asio::cancellation_type type) {
    return type == asio::cancellation_type::none ? type : asio::cancellation_type::terminal;
  });
  co_return co_await std::move(operation);
}

}  // namespace

template <class Result>
void launch(asio::awaitable<Result> operation, const asio::any_io_executor& ex, operation_handler<Result> handler) {
  auto slot = asio::get_associated_cancellation_slot(handler);
  // Held by pointer: a function object holding the handler must not be copied (completion.hpp).
  auto held = std::make_shared<operation_handler<Result>>(std::move(handler));
  auto finish = [held, slot, ex](auto... outcome) mutable {
    if (slot.is_connected()) slot.clear();  // the operation is over: nothing left to cancel
    post_completion(std::move(*held), ex, std::move(outcome)...);
  };
  if (slot.is_connected())
    asio::co_spawn(ex, cancelled_as_terminal(std::move(operation)),
                   asio::bind_cancellation_slot(slot, std::move(finish)));
  else
    asio::co_spawn(ex, std::move(operation), std::move(finish));
}

// The result types of the client's operations (client.hpp, pool.hpp, oauth.hpp: void).
template void launch(asio::awaitable<void>, const asio::any_io_executor&, operation_handler<void>);
template void launch(asio::awaitable<json::object>, const asio::any_io_executor&, operation_handler<json::object>);
template void launch(asio::awaitable<json::value>, const asio::any_io_executor&, operation_handler<json::value>);
template void launch(asio::awaitable<initialize_result>, const asio::any_io_executor&,
                     operation_handler<initialize_result>);
template void launch(asio::awaitable<std::vector<tool_info>>, const asio::any_io_executor&,
                     operation_handler<std::vector<tool_info>>);
template void launch(asio::awaitable<call_tool_result>, const asio::any_io_executor&,
                     operation_handler<call_tool_result>);
template void launch(asio::awaitable<std::optional<json::object>>, const asio::any_io_executor&,
                     operation_handler<std::optional<json::object>>);
template void launch(asio::awaitable<task_info>, const asio::any_io_executor&, operation_handler<task_info>);
template void launch(asio::awaitable<task_page>, const asio::any_io_executor&, operation_handler<task_page>);
template void launch(asio::awaitable<std::vector<task_info>>, const asio::any_io_executor&,
                     operation_handler<std::vector<task_info>>);
template void launch(asio::awaitable<std::vector<resource_info>>, const asio::any_io_executor&,
                     operation_handler<std::vector<resource_info>>);
template void launch(asio::awaitable<std::vector<resource_template_info>>, const asio::any_io_executor&,
                     operation_handler<std::vector<resource_template_info>>);
template void launch(asio::awaitable<std::vector<resource_contents>>, const asio::any_io_executor&,
                     operation_handler<std::vector<resource_contents>>);
template void launch(asio::awaitable<std::vector<prompt_info>>, const asio::any_io_executor&,
                     operation_handler<std::vector<prompt_info>>);
template void launch(asio::awaitable<get_prompt_result>, const asio::any_io_executor&,
                     operation_handler<get_prompt_result>);
template void launch(asio::awaitable<completion>, const asio::any_io_executor&, operation_handler<completion>);
// The skills extension's (client/skills.hpp).
template void launch(asio::awaitable<std::string>, const asio::any_io_executor&, operation_handler<std::string>);
template void launch(asio::awaitable<skill_entry>, const asio::any_io_executor&, operation_handler<skill_entry>);
template void launch(asio::awaitable<std::vector<skill_entry>>, const asio::any_io_executor&,
                     operation_handler<std::vector<skill_entry>>);
template void launch(asio::awaitable<loaded_skill>, const asio::any_io_executor&, operation_handler<loaded_skill>);

}  // namespace mcp::detail
