#include "held_call.hpp"

#include "own_copy.hpp"

#include <mcp/protocol/methods.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace caduceus::gateway {

namespace {

// Whether the client declared what answering `ask` takes. An ask it cannot
// answer is refused to the upstream, as it would have been had the client
// been its own (the upstream may go on without it); it does not fail the
// request, which may not have caused the ask at all: on a shared connection
// the ask of a server that asks at start-up lands on whatever runs.
bool can_answer(const json::object& capabilities, const mcp::input_request& ask) {
  if (ask.method == mcp::methods::sampling_create_message) return capabilities.contains("sampling");
  if (ask.method == mcp::methods::roots_list) return capabilities.contains("roots");
  if (ask.method != mcp::methods::elicitation_create) return false;  // (not an input request at all)
  const auto* elicitation = capabilities.if_contains("elicitation");
  if (!elicitation) return false;
  const auto* mode = ask.params.if_contains("mode");
  if (!mode || *mode != "url") return true;
  return elicitation->is_object() && elicitation->get_object().contains("url");
}

// Whether the coroutine waiting here was cancelled (rather than woken).
asio::awaitable<bool> cancelled_here() {
  const auto state = co_await asio::this_coro::cancellation_state;
  co_return state.cancelled() != asio::cancellation_type::none;
}

}  // namespace

held_call::held_call(std::string id, asio::any_io_executor executor, std::chrono::milliseconds hold_limit,
                     std::function<void()> on_end)
    : id_(std::move(id)),
      executor_(std::move(executor)),
      hold_limit_(hold_limit),
      on_end_(std::move(on_end)),
      changed_(executor_, asio::steady_timer::time_point::max()),
      expiry_(executor_) {}

void held_call::start(asio::awaitable<json::object> call) {
  auto done = [self = shared_from_this()](std::exception_ptr failure, json::object result) {
    self->end(failure, std::move(result));
  };
  asio::co_spawn(executor_, std::move(call), asio::bind_cancellation_slot(cancel_.slot(), std::move(done)));
}

void held_call::end(std::exception_ptr failure, json::object result) {
  if (over_) return;
  over_ = true;
  if (failure) failure_ = failure;
  else result_ = std::move(result);
  expiry_.cancel();
  changed_.cancel();
  if (auto on_end = std::exchange(on_end_, nullptr)) on_end();
}

void held_call::abandon(std::exception_ptr why) {
  if (over_) return;
  if (ask_ && !ask_->answer) ask_->refusal = why;
  changed_.cancel();
  cancel_.emit(asio::cancellation_type::terminal);  // end() follows, from the call
}

void held_call::hold() {
  if (over_ || relay_) return;  // a round is running: it is not waited for
  expiry_.expires_after(hold_limit_);
  expiry_.async_wait([weak = weak_from_this()](boost::system::error_code ec) {
    auto self = weak.lock();
    if (ec || !self || self->relay_) return;
    self->abandon(std::make_exception_ptr(mcp::protocol_error(
        mcp::errc::internal_error, "the client did not come back with the input the upstream asked for")));
  });
}

void held_call::progress(const mcp::progress_update& update) {
  if (relay_) relay_->push(update);
}

asio::awaitable<json::object> held_call::ask(std::string method, json::object params) {
  while (ask_ && !over_) {  // one question at a time
    co_await changed_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (co_await cancelled_here()) throw mcp::error(asio::error::operation_aborted);
  }
  if (over_) throw mcp::protocol_error(mcp::errc::internal_error, "the client's request has ended");
  ask_ = pending_ask{"upstream-" + std::to_string(++asks_), mcp::input_request{std::move(method), std::move(params)},
                     std::nullopt, nullptr};
  changed_.cancel();  // the round waiting for the call takes it to the client
  hold();
  while (!over_ && !ask_->answer && !ask_->refusal) {
    co_await changed_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (co_await cancelled_here()) {  // the upstream withdrew its question
      ask_.reset();
      changed_.cancel();
      throw mcp::error(asio::error::operation_aborted);
    }
  }
  auto answered = std::move(*ask_);
  ask_.reset();
  changed_.cancel();  // the next question may go
  if (answered.refusal) std::rethrow_exception(answered.refusal);
  if (!answered.answer) throw mcp::protocol_error(mcp::errc::internal_error, "the client's request has ended");
  co_return std::move(*answered.answer);
}

asio::awaitable<held_call::standing> held_call::next(std::shared_ptr<request_relay> relay) {
  relay_ = std::move(relay);
  expiry_.cancel();
  while (!over_ && !(ask_ && !ask_->answer && !ask_->refusal)) {
    co_await changed_.async_wait(asio::as_tuple(asio::use_awaitable));
    if (co_await cancelled_here()) throw mcp::error(asio::error::operation_aborted);
  }
  standing now;
  if (over_) {
    now.result = result_;
    now.failure = failure_;
  } else {
    now.ask_key = ask_->key;
    now.ask = ask_->request;
  }
  co_return now;
}

asio::awaitable<void> held_call::give(std::string key, json::object answer, std::exception_ptr refusal) {
  if (ask_ && ask_->key == key && !ask_->answer && !ask_->refusal) {
    if (refusal) ask_->refusal = refusal;
    else ask_->answer = std::move(answer);
  }
  changed_.cancel();
  co_return;
}

asio::awaitable<json::object> held_call::serve_round(mcp::request_context& ctx) {
  auto self = shared_from_this();
  auto relay = std::make_shared<request_relay>(ctx);
  // However the round ends, the call waits for the next one from then on.
  struct leave {
    std::shared_ptr<held_call> call;
    std::shared_ptr<request_relay> relay;
    ~leave() {
      relay->abandon();  // the request's context goes with the round
      asio::post(call->executor_, [call = call, relay = relay] {
        if (call->relay_ == relay) call->relay_ = nullptr;
        call->hold();
      });
    }
  } on_exit{self, relay};
  for (;;) {
    auto waiting = next(relay);
    auto now = co_await asio::co_spawn(executor_, std::move(waiting), asio::use_awaitable);
    if (now.failure) {
      relay->abandon();
      std::rethrow_exception(now.failure);
    }
    if (now.result) {
      co_await relay->finish();
      co_return std::move(*now.result);
    }
    if (!can_answer(ctx.session().client_capabilities(), now.ask)) {
      auto refusal = std::make_exception_ptr(mcp::protocol_error(
          mcp::errc::method_not_found, "the client does not offer " + now.ask.method));
      auto refusing = give(now.ask_key, {}, refusal);
      co_await asio::co_spawn(executor_, std::move(refusing), asio::use_awaitable);
      continue;
    }
    ctx.carry(json::object{{held_call_key, id_}});
    mcp::input_requests asked;
    asked.emplace(now.ask_key, std::move(now.ask));
    mcp::input_responses answers;
    try {
      answers = co_await ctx.ask(std::move(asked));  // input_required until the client answers
    } catch (const std::exception&) {
      // The ask could not be put to the client: neither can the call go on.
      asio::post(executor_, [self, why = std::current_exception()] { self->abandon(why); });
      throw;
    }
    auto giving = give(now.ask_key, own_copy(answers.at(now.ask_key)), nullptr);
    co_await asio::co_spawn(executor_, std::move(giving), asio::use_awaitable);
  }
}

asio::awaitable<std::optional<json::object>> held_call::serve_remote_round(remote_round round) {
  auto self = shared_from_this();
  struct leave {  // however the round ends, the call waits for the next one from then on
    std::shared_ptr<held_call> call;
    ~leave() {
      asio::post(call->executor_, [call = call] { call->hold(); });
    }
  } on_exit{self};
  for (;;) {
    auto now = co_await asio::co_spawn(executor_, next(nullptr), asio::use_awaitable);
    if (now.failure) std::rethrow_exception(now.failure);
    if (now.result) co_return std::move(*now.result);
    std::exception_ptr refusal;
    std::optional<json::object> answer;
    if (!can_answer(round.client_capabilities, now.ask))
      refusal = std::make_exception_ptr(
          mcp::protocol_error(mcp::errc::method_not_found, "the client does not offer " + now.ask.method));
    else if (answer = co_await round.ask(now.ask_key, std::move(now.ask)); !answer)
      co_return std::nullopt;
    auto giving = give(now.ask_key, answer ? std::move(*answer) : json::object(), refusal);
    co_await asio::co_spawn(executor_, std::move(giving), asio::use_awaitable);
  }
}

}  // namespace caduceus::gateway
