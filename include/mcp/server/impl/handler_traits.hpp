#pragma once
// What a typed handler's signature says, and how a plain function is run:
// shared by typed tools and typed prompts.

#include <mcp/json/convert.hpp>
#include <mcp/server/context.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/callable_traits/args.hpp>
#include <boost/callable_traits/return_type.hpp>

#include <optional>
#include <tuple>
#include <type_traits>
#include <variant>

namespace mcp {

/// A plain-function handler that never blocks, made with non_blocking().
template <class F>
struct non_blocking_handler {
  F fn;
};

/// Marks a plain-function handler that never blocks (no I/O, no locks held
/// long, no sleeping): it runs inline on the session's executor instead of
/// going to the worker pool and back, which costs microseconds and thread
/// wake-ups per call. Coroutine handlers always run inline.
///
///   srv.add_tool("echo", "Echoes", mcp::non_blocking([](const echo_args& a) { return a.text; }));
template <class F>
non_blocking_handler<F> non_blocking(F fn) {
  return {std::move(fn)};
}

namespace detail {

// The callable inside a handler, and whether it may run inline.
template <class F>
struct handler_callable {
  using type = F;
  static constexpr bool non_blocking = false;
  static const F& of(const F& f) { return f; }
};

template <class F>
struct handler_callable<non_blocking_handler<F>> {
  using type = F;
  static constexpr bool non_blocking = true;
  static const F& of(const non_blocking_handler<F>& f) { return f.fn; }
};

template <class T>
struct awaitable_traits {
  static constexpr bool is_awaitable = false;
  using value_type = T;
};

template <class T, class E>
struct awaitable_traits<asio::awaitable<T, E>> {
  static constexpr bool is_awaitable = true;
  using value_type = T;
};

template <class T>
constexpr bool is_context_v = std::is_same_v<std::remove_cvref_t<T>, request_context>;

// What a handler's parameter list says: the argument struct, if any, and
// whether it wants the context.
template <class Params>
struct handler_params;

template <>
struct handler_params<std::tuple<>> {
  using input = void;
  static constexpr bool wants_context = false;
};

template <class P>
struct handler_params<std::tuple<P>> {
  static constexpr bool wants_context = is_context_v<P>;
  using input = std::conditional_t<wants_context, void, std::remove_cvref_t<P>>;
};

template <class P, class C>
struct handler_params<std::tuple<P, C>> {
  static_assert(is_context_v<C>, "a handler's second parameter must be mcp::request_context&");
  static constexpr bool wants_context = true;
  using input = std::remove_cvref_t<P>;
};

template <class F>
struct typed_handler {
  using callable = handler_callable<F>;
  using params = handler_params<boost::callable_traits::args_t<typename callable::type>>;
  using input = typename params::input;
  using returned = boost::callable_traits::return_type_t<typename callable::type>;
  static constexpr bool is_coroutine = awaitable_traits<returned>::is_awaitable;
  using result = typename awaitable_traits<returned>::value_type;
  static constexpr bool has_input = !std::is_void_v<input>;

  static_assert(!has_input || described_struct<input>,
                "a typed handler's argument must be a struct described with BOOST_DESCRIBE_STRUCT");
};

/// Runs a plain function on `pool`, resuming the caller on its own executor.
/// (Through std::optional: co_spawn needs a default-constructible result.)
/// The caller's cancellation is not passed on: a plain function cannot be
/// interrupted (it polls ctx.cancelled()), and Asio would deliver it on
/// another thread of the pool while the function runs, a data race.
template <class R, class Fn>
asio::awaitable<R> run_on(asio::any_io_executor pool, Fn fn) {
  auto result = co_await asio::co_spawn(
      pool, [fn = std::move(fn)]() mutable -> asio::awaitable<std::optional<R>> { co_return fn(); },
      asio::bind_cancellation_slot(asio::cancellation_slot(), asio::use_awaitable));
  co_return std::move(*result);
}

// The handler's input, or a placeholder for handlers that take none.
template <class H>
using input_of = std::conditional_t<H::has_input, typename H::input, std::monostate>;

/// The handler's input parsed from `arguments`; a conversion failure throws
/// conversion_error.
template <class H>
input_of<H> parse_input(const json::object& arguments) {
  if constexpr (H::has_input)
    return from_json<typename H::input>(arguments);
  else
    return {};
}

/// Calls a typed handler with its input (when it takes one) and the context
/// (when it wants it); returns what it returns.
template <class H, class Handler>
typename H::returned invoke_typed(const Handler& handler, input_of<H>& input, request_context& ctx) {
  const auto& f = H::callable::of(handler);
  if constexpr (H::has_input && H::params::wants_context)
    return f(input, ctx);
  else if constexpr (H::has_input)
    return f(input);
  else if constexpr (H::params::wants_context)
    return f(ctx);
  else
    return f();
}

/// Whether a typed handler finishes without waiting (a non_blocking plain
/// function): the server may then serve its requests at once.
template <class H>
constexpr bool runs_at_once = !H::is_coroutine && H::callable::non_blocking;

/// Calls a typed handler with its input parsed from `arguments`: a coroutine
/// or a non_blocking function directly, another plain function on `pool`.
/// A conversion failure throws conversion_error.
template <class H, class Handler>
asio::awaitable<typename H::result> call_typed(const Handler& handler, const json::object& arguments,
                                               request_context& ctx, asio::any_io_executor pool) {
  auto input = parse_input<H>(arguments);  // lives in the frame, for handlers that take it by reference
  auto invoke = [&]() -> typename H::returned { return invoke_typed<H>(handler, input, ctx); };
  if constexpr (H::is_coroutine)
    co_return co_await invoke();
  else if constexpr (H::callable::non_blocking)
    co_return invoke();
  else
    co_return co_await run_on<typename H::result>(pool, invoke);
}

}  // namespace detail
}  // namespace mcp
