#pragma once
// What a typed handler's signature says, and how a plain function is run:
// shared by typed tools and typed prompts.

#include <mcp/json/convert.hpp>
#include <mcp/server/context.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/callable_traits/args.hpp>
#include <boost/callable_traits/return_type.hpp>

#include <optional>
#include <tuple>
#include <type_traits>
#include <variant>

namespace mcp {

namespace detail {

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
  using params = handler_params<boost::callable_traits::args_t<F>>;
  using input = typename params::input;
  using returned = boost::callable_traits::return_type_t<F>;
  static constexpr bool is_coroutine = awaitable_traits<returned>::is_awaitable;
  using result = typename awaitable_traits<returned>::value_type;
  static constexpr bool has_input = !std::is_void_v<input>;

  static_assert(!has_input || described_struct<input>,
                "a typed handler's argument must be a struct described with BOOST_DESCRIBE_STRUCT");
};

/// Runs a plain function on `pool`, resuming the caller on its own executor.
/// (Through std::optional: co_spawn needs a default-constructible result.)
template <class R, class Fn>
asio::awaitable<R> run_on(asio::any_io_executor pool, Fn fn) {
  auto result = co_await asio::co_spawn(
      pool, [fn = std::move(fn)]() mutable -> asio::awaitable<std::optional<R>> { co_return fn(); },
      asio::use_awaitable);
  co_return std::move(*result);
}

/// Calls a typed handler with its input parsed from `arguments` (when it
/// takes one) and the context (when it wants it): a coroutine directly, a
/// plain function on `pool`. A conversion failure throws conversion_error.
template <class H, class F>
asio::awaitable<typename H::result> call_typed(const F& f, const json::value& arguments,
                                               request_context& ctx, asio::any_io_executor pool) {
  using input_type = std::conditional_t<H::has_input, typename H::input, std::monostate>;
  input_type input{};  // lives here, in the frame, for handlers that take it by reference
  if constexpr (H::has_input) input = from_json<input_type>(arguments);
  auto invoke = [&]() -> typename H::returned {
    if constexpr (H::has_input && H::params::wants_context)
      return f(input, ctx);
    else if constexpr (H::has_input)
      return f(input);
    else if constexpr (H::params::wants_context)
      return f(ctx);
    else
      return f();
  };
  if constexpr (H::is_coroutine)
    co_return co_await invoke();
  else
    co_return co_await run_on<typename H::result>(pool, invoke);
}

}  // namespace detail
}  // namespace mcp
