#pragma once
// How the SDK's completion-token forms (async_...) run: each starts a
// coroutine of the library through detail::launch, which the library
// compiles once per result type (src/client/async_ops.cpp). A user's
// translation unit instantiates only async_initiate and the type erasure of
// its own handler (asio::any_completion_handler), never the coroutine
// machinery. The typed forms (async_request<Method>,
// async_call_tool_as<Result>) run the untyped operation and read its result
// into the type on completion, in the handler's executor.

#include <boost/asio/any_completion_handler.hpp>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/associated_cancellation_slot.hpp>
#include <boost/asio/associated_executor.hpp>
#include <boost/asio/async_result.hpp>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/bind_executor.hpp>

#include <exception>
#include <optional>
#include <utility>

namespace mcp {

namespace asio = boost::asio;

namespace detail {

template <class Result>
struct operation_signature {
  using type = void(std::exception_ptr, Result);
};
template <>
struct operation_signature<void> {
  using type = void(std::exception_ptr);
};
template <class Result>
using operation_signature_t = typename operation_signature<Result>::type;
template <class Result>
using operation_handler = asio::any_completion_handler<operation_signature_t<Result>>;

/// Runs `operation` on `ex` and completes `handler` with its outcome, on the
/// handler's associated executor (`ex` when it has none), never inside this
/// call. A cancellation emitted on the handler's cancellation slot, of any
/// type (taken as terminal), cancels the operation. Compiled in the library
/// for the result types of the client's operations.
template <class Result>
void launch(asio::awaitable<Result> operation, const asio::any_io_executor& ex, operation_handler<Result> handler);

template <class Result, class CompletionToken>
auto async_run(asio::awaitable<Result> operation, const asio::any_io_executor& ex, CompletionToken&& token) {
  return asio::async_initiate<CompletionToken, operation_signature_t<Result>>(
      [](auto handler, asio::awaitable<Result> operation, const asio::any_io_executor& ex) {
        launch<Result>(std::move(operation), ex, operation_handler<Result>(std::move(handler)));
      },
      token, std::move(operation), ex);
}

/// async_run for a typed form: runs the untyped `operation` (its result a
/// `Raw`) and completes with `read(raw)`, or with what `read` threw.
template <class Result, class Raw, class Read, class CompletionToken>
auto async_run_read(asio::awaitable<Raw> operation, const asio::any_io_executor& ex, Read read,
                    CompletionToken&& token) {
  return asio::async_initiate<CompletionToken, operation_signature_t<Result>>(
      [](auto handler, asio::awaitable<Raw> operation, const asio::any_io_executor& ex, Read read) {
        auto slot = asio::get_associated_cancellation_slot(handler);
        auto handler_ex = asio::get_associated_executor(handler, ex);
        auto finish = [handler = std::move(handler), read = std::move(read)](std::exception_ptr failure,
                                                                              Raw raw) mutable {
          std::optional<Result> result;
          if (!failure) {
            try {
              result.emplace(read(std::move(raw)));
            } catch (...) {
              failure = std::current_exception();
            }
          }
          if (failure) std::move(handler)(failure, Result{});
          else std::move(handler)(nullptr, std::move(*result));
        };
        launch<Raw>(std::move(operation), ex,
                    operation_handler<Raw>(asio::bind_cancellation_slot(
                        slot, asio::bind_executor(std::move(handler_ex), std::move(finish)))));
      },
      token, std::move(operation), ex, std::move(read));
}

}  // namespace detail

}  // namespace mcp
