#pragma once
// Template bodies of the typed prompt API declared in mcp/server/server.hpp.

#include <mcp/export.hpp>
#include <mcp/server/impl/handler_traits.hpp>

namespace mcp {
namespace detail {

template <class T>
get_prompt_result to_prompt_result(T&& value) {
  using V = std::remove_cvref_t<T>;
  if constexpr (std::is_same_v<V, get_prompt_result>) {
    return std::forward<T>(value);
  } else if constexpr (std::is_same_v<V, std::vector<prompt_message>>) {
    return {std::forward<T>(value)};
  } else if constexpr (std::is_convertible_v<V, std::string>) {
    return {{prompt_message{"user", content::text(std::string(std::forward<T>(value)))}}};
  } else {
    static_assert(sizeof(V) == 0,
                  "a prompt returns std::string (one user message), "
                  "std::vector<mcp::prompt_message> or mcp::get_prompt_result");
  }
}

/// The prompt's declared arguments, read from its argument struct's schema:
/// every property must be a string (prompt arguments are strings on the wire).
MCP_API std::vector<prompt_argument> prompt_arguments_from_schema(const std::string& prompt,
                                                          const json::object& schema);

template <class F>
prompt_handler make_prompt_handler(F f, asio::any_io_executor pool) {
  return [f = std::move(f), pool](const prompt_arguments& args,
                                  request_context& ctx) -> asio::awaitable<get_prompt_result> {
    json::object given;
    for (const auto& [name, value] : args) given[name] = value;
    auto result = co_await call_typed<typed_handler<F>>(f, given, ctx, pool);
    co_return to_prompt_result(std::move(result));
  };
}

}  // namespace detail

template <class F>
  requires(!std::is_convertible_v<F, prompt_handler>)
void server::add_prompt(prompt_info info, F handler) {
  using H = detail::typed_handler<F>;
  if constexpr (H::has_input)
    info.arguments = detail::prompt_arguments_from_schema(info.name, schema_of<typename H::input>());
  add_prompt(std::move(info), detail::make_prompt_handler(std::move(handler), worker_executor()));
}

template <class F>
  requires(!std::is_convertible_v<F, prompt_handler>)
void server::add_prompt(std::string name, std::string description, F handler) {
  prompt_info info{std::move(name), std::move(description)};
  add_prompt(std::move(info), std::move(handler));
}

}  // namespace mcp
