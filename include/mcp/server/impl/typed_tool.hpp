#pragma once
// Template bodies of the typed tool API declared in mcp/server/server.hpp.

#include <mcp/export.hpp>
#include <mcp/server/impl/handler_traits.hpp>

#include <variant>

namespace mcp {

/// A tool execution error as a value (`isError: true` with this message).
struct MCP_API tool_error {
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
struct tool_result_traits {
  using value_type = T;
};

template <class T>
struct tool_result_traits<tool_result<T>> {
  using value_type = T;
};

template <class F>
struct typed_tool : typed_handler<F> {
  // The structured output type: a described struct, or else unstructured.
  using output = typename tool_result_traits<typename typed_handler<F>::result>::value_type;
  static constexpr bool structured = described_struct<output>;
};

template <class T>
call_tool_result to_call_tool_result(T&& value) {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<V, call_tool_result>) {
    return std::forward<T>(value);
  } else if constexpr (std::is_convertible_v<V, std::string_view>) {
    return call_tool_result::text(std::string_view(value));
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

/// Builds the raw handler that converts the (already validated) arguments,
/// calls `f` and converts its result.
template <class F>
tool_handler make_tool_handler(F f, asio::any_io_executor pool) {
  return [f = std::move(f), pool](const json::object& arguments,
                                  request_context& ctx) -> asio::awaitable<call_tool_result> {
    auto result = co_await call_typed<typed_tool<F>>(f, arguments, ctx, pool);
    co_return to_call_tool_result(std::move(result));
  };
}

/// The same for a handler that finishes without waiting, called where the
/// request arrives (no coroutine).
template <class F>
tool_handler_at_once make_tool_handler_at_once(F f) {
  return [f = std::move(f)](const json::object& arguments, request_context& ctx) {
    using H = typed_tool<F>;
    auto input = parse_input<H>(arguments);
    return to_call_tool_result(invoke_typed<H>(f, input, ctx));
  };
}

}  // namespace detail

template <class F>
  requires(!std::is_convertible_v<F, tool_handler>)
void server::add_tool(tool_info info, F handler) {
  using H = detail::typed_tool<F>;
  if constexpr (H::has_input)
    info.input_schema = schema_of<typename H::input>();
  else
    info.input_schema = {{"type", "object"}, {"properties", json::object{}}};
  if constexpr (H::structured) info.output_schema = schema_of<typename H::output>();
  if constexpr (detail::runs_at_once<H>) {
    auto at_once = detail::make_tool_handler_at_once(handler);
    add_tool(std::move(info), detail::make_tool_handler(std::move(handler), worker_executor()),
             std::move(at_once));
  } else {
    add_tool(std::move(info), detail::make_tool_handler(std::move(handler), worker_executor()));
  }
}

template <class F>
  requires(!std::is_convertible_v<F, tool_handler>)
void server::add_tool(std::string name, std::string description, F handler) {
  tool_info info{std::move(name), std::move(description)};
  add_tool(std::move(info), std::move(handler));
}

}  // namespace mcp
