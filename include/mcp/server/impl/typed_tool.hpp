#pragma once
// Template bodies of the typed tool API declared in mcp/server/server.hpp.

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/callable_traits/args.hpp>
#include <boost/callable_traits/return_type.hpp>
#include <boost/json/serialize.hpp>

#include <tuple>
#include <type_traits>
#include <variant>

namespace mcp {

/// A tool execution error as a value (`isError: true` with this message).
struct tool_error {
  std::string message;
};

/// What a typed tool returns when it may fail without throwing.
template <class T>
class tool_result {
 public:
  tool_result(T value) : outcome_(std::move(value)) {}  // NOLINT: implicit by design
  tool_result(tool_error error) : outcome_(std::move(error)) {}  // NOLINT

  bool ok() const noexcept { return outcome_.index() == 0; }
  T& value() { return std::get<0>(outcome_); }
  const tool_error& error() const { return std::get<1>(outcome_); }

 private:
  std::variant<T, tool_error> outcome_;
};

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
struct tool_result_traits {
  using value_type = T;
};

template <class T>
struct tool_result_traits<tool_result<T>> {
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
  // The structured output type, or void when the result is unstructured.
  using output = typename tool_result_traits<result>::value_type;
  static constexpr bool has_input = !std::is_void_v<input>;
  static constexpr bool structured = described_struct<output>;

  static_assert(!has_input || described_struct<input>,
                "a typed handler's argument must be a struct described with BOOST_DESCRIBE_STRUCT");
};

template <class T>
call_tool_result to_call_tool_result(T&& value) {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<V, call_tool_result>) {
    return std::forward<T>(value);
  } else if constexpr (std::is_convertible_v<V, std::string>) {
    return call_tool_result::text(std::string(std::forward<T>(value)));
  } else if constexpr (described_struct<V>) {
    call_tool_result out;
    out.structured_content = to_json_value(value);
    return out;
  } else {
    static_assert(sizeof(V) == 0,
                  "a tool returns std::string, mcp::call_tool_result, a described struct, "
                  "or mcp::tool_result<one of these>");
  }
}

template <class T>
call_tool_result to_call_tool_result(tool_result<T>&& value) {
  if (!value.ok()) return call_tool_result::error(value.error().message);
  return to_call_tool_result(std::move(value.value()));
}

/// Runs a plain function on `pool`, resuming the caller on its own executor.
/// (Through std::optional: co_spawn needs a default-constructible result.)
template <class R, class Fn>
asio::awaitable<R> run_on(asio::any_io_executor pool, Fn fn) {
  auto result = co_await asio::co_spawn(
      pool, [fn = std::move(fn)]() mutable -> asio::awaitable<std::optional<R>> { co_return fn(); },
      asio::use_awaitable);
  co_return std::move(*result);
}

/// Builds the raw handler that converts the (already validated) arguments,
/// calls `f` and converts its result.
template <class F>
tool_handler make_tool_handler(F f, asio::any_io_executor pool) {
  using H = typed_handler<F>;
  return [f = std::move(f), pool](const json::object& arguments,
                                  request_context& ctx) -> asio::awaitable<call_tool_result> {
    if constexpr (H::has_input) {
      const json::value instance = arguments;
      auto input = from_json<typename H::input>(instance);
      auto invoke = [&]() {
        if constexpr (H::params::wants_context)
          return f(input, ctx);
        else
          return f(input);
      };
      if constexpr (H::is_coroutine) {
        auto result = co_await invoke();
        co_return to_call_tool_result(std::move(result));
      } else {
        auto result = co_await run_on<typename H::result>(pool, invoke);
        co_return to_call_tool_result(std::move(result));
      }
    } else {
      auto invoke = [&]() {
        if constexpr (H::params::wants_context)
          return f(ctx);
        else
          return f();
      };
      if constexpr (H::is_coroutine) {
        auto result = co_await invoke();
        co_return to_call_tool_result(std::move(result));
      } else {
        auto result = co_await run_on<typename H::result>(pool, invoke);
        co_return to_call_tool_result(std::move(result));
      }
    }
  };
}

}  // namespace detail

template <class F>
  requires(!std::is_convertible_v<F, tool_handler>)
void server::add_tool(tool_info info, F handler) {
  using H = detail::typed_handler<F>;
  if constexpr (H::has_input)
    info.input_schema = schema_of<typename H::input>();
  else
    info.input_schema = {{"type", "object"}, {"properties", json::object{}}};
  if constexpr (H::structured) info.output_schema = schema_of<typename H::output>();
  add_tool(std::move(info), detail::make_tool_handler(std::move(handler), worker_executor()));
}

template <class F>
  requires(!std::is_convertible_v<F, tool_handler>)
void server::add_tool(std::string name, std::string description, F handler) {
  tool_info info{std::move(name), std::move(description)};
  add_tool(std::move(info), std::move(handler));
}

}  // namespace mcp
