#pragma once
// client::call_tool_as: typed arguments in, typed structuredContent out.

#include <mcp/client/client.hpp>

#include <type_traits>

namespace mcp {

namespace detail {

template <class Arguments>
json::object tool_arguments(Arguments& arguments) {
  if constexpr (std::is_same_v<Arguments, json::object>) {
    return std::move(arguments);
  } else {
    auto value = to_json_value(arguments);
    if (!value.is_object()) throw std::invalid_argument("tool arguments must be a JSON object");
    return std::move(value.get_object());
  }
}

}  // namespace detail

template <class Result, class Arguments>
asio::awaitable<Result> client::call_tool_as(std::string name, Arguments arguments) {
  call_options defaults;
  co_return co_await call_tool_as<Result>(std::move(name), std::move(arguments), std::move(defaults));
}

template <class Result, class Arguments>
asio::awaitable<Result> client::call_tool_as(std::string name, Arguments arguments, call_options options) {
  json::object args = detail::tool_arguments(arguments);
  const std::string tool = name;
  json::value structured = co_await call_tool_structured(std::move(name), std::move(args), std::move(options));
  if constexpr (std::is_same_v<Result, json::value>) {
    co_return structured;
  } else {
    try {
      co_return from_json<Result>(structured);
    } catch (const conversion_error& e) {
      call_tool_result sent;
      sent.structured_content = std::move(structured);
      throw tool_call_error("the result of tool " + tool + " does not convert: " + e.what(), std::move(sent));
    }
  }
}

}  // namespace mcp
