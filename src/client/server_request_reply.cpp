// The callback form of the handlers for requests from the server
// (client::on_sampling / on_elicitation taking a server_request_callback):
// the answer is given through a server_request_reply, once, from any thread,
// and awaited here on the client's executor.

#include "client_impl.hpp"

#include <mcp/error.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <functional>
#include <mutex>
#include <optional>
#include <utility>
#include <variant>

namespace mcp {

namespace detail {

namespace {

using answer_value = std::variant<json::object, rpc_error>;

/// Where the answer lands, shared by the waiting request and the replies.
struct answer_slot {
  std::mutex mutex;
  bool given = false;                  // once: later answers are refused
  std::optional<answer_value> answer;  // until the request takes it
  /// Set while the request waits: wakes it (on the client's executor).
  std::function<void()> wake;

  bool give(answer_value value) {
    const std::lock_guard lock(mutex);
    if (given) return false;
    given = true;
    answer = std::move(value);
    // Under the lock: the request, once it stops waiting (stop_waiting, on
    // its executor), is never woken, so the wake-up never reaches an
    // executor that is gone.
    if (wake) std::exchange(wake, nullptr)();
    return true;
  }

  std::optional<answer_value> take() {
    const std::lock_guard lock(mutex);
    return std::exchange(answer, std::nullopt);
  }

  void stop_waiting() {
    const std::lock_guard lock(mutex);
    wake = nullptr;
  }
};

}  // namespace

/// Owned by the replies alone: when the last one goes, an answer not given is
/// given as an error, so that the server is not left waiting.
struct server_request_answer {
  explicit server_request_answer(std::shared_ptr<answer_slot> slot) : slot(std::move(slot)) {}
  ~server_request_answer() {
    slot->give(rpc_error{errc::internal_error, "Internal error: the client's handler dropped the request unanswered",
                         nullptr});
  }
  std::shared_ptr<answer_slot> slot;
};

namespace {

asio::awaitable<json::object> await_reply(server_request_callback callback, json::object params) {
  auto ex = co_await asio::this_coro::executor;
  auto slot = std::make_shared<answer_slot>();
  auto given = std::make_shared<asio::steady_timer>(ex, asio::steady_timer::time_point::max());
  slot->wake = [ex, given] { asio::post(ex, [given] { given->cancel(); }); };
  // However this request ends (answered, cancelled, or its frame destroyed
  // with the client's io_context), a later answer wakes nothing.
  struct stop_waiting_at_end {
    answer_slot& slot;
    ~stop_waiting_at_end() { slot.stop_waiting(); }
  } at_end{*slot};
  callback(std::move(params), server_request_reply(std::make_shared<server_request_answer>(slot)));
  for (;;) {
    // No suspension between this look and the wait: the wake-up is posted
    // to this executor, so it comes after the wait began.
    if (auto answer = slot->take()) {
      if (auto* error = std::get_if<rpc_error>(&*answer)) throw protocol_error(std::move(*error));
      co_return std::get<json::object>(std::move(*answer));
    }
    co_await given->async_wait(asio::as_tuple(asio::use_awaitable));
    const auto state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none)
      throw mcp::error(asio::error::operation_aborted);  // cancelled by the server: a later answer goes nowhere
  }
}

server_request_handler awaiting(server_request_callback callback) {
  if (!callback) return nullptr;
  return [callback = std::move(callback)](json::object params) { return await_reply(callback, std::move(params)); };
}

}  // namespace

}  // namespace detail

server_request_reply::server_request_reply(std::shared_ptr<detail::server_request_answer> answer)
    : answer_(std::move(answer)) {}

bool server_request_reply::result(json::object result) const { return answer_->slot->give(std::move(result)); }

bool server_request_reply::error(rpc_error error) const { return answer_->slot->give(std::move(error)); }

void client::on_sampling(server_request_callback handler) { on_sampling(detail::awaiting(std::move(handler))); }

void client::on_elicitation(server_request_callback handler) {
  on_elicitation(detail::awaiting(std::move(handler)));
}

void client::on_roots(server_request_callback handler) { on_roots(detail::awaiting(std::move(handler))); }

}  // namespace mcp
