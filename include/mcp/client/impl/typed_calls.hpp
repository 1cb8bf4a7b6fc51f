#pragma once
// client::call_tool_as: typed arguments in, typed structuredContent out;
// client::request<Method> and notify<Method>: a method of the typed table.

#include <mcp/client/client.hpp>
#include <mcp/error.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include <type_traits>

namespace mcp {

namespace detail {

template <class Arguments>
json::object tool_arguments(Arguments& arguments) {
  if constexpr (std::is_same_v<Arguments, json::object>) {
    return std::move(arguments);
  } else {
    auto value = to_json_value(arguments);
    if (!value.is_object()) throw mcp::invalid_argument("tool arguments must be a JSON object");
    return std::move(value.get_object());
  }
}

/// The params of a typed method as the object a request carries.
template <class Params>
json::object method_params(Params&& params) {
  auto value = to_json_value(std::forward<Params>(params));
  if (!value.is_object()) return {};
  return std::move(value.get_object());
}

/// The checked structuredContent of tool `tool` as a `Result`.
template <class Result>
Result structured_as(const std::string& tool, json::value structured) {
  if constexpr (std::is_same_v<Result, json::value>) {
    return structured;
  } else {
    try {
      return from_json<Result>(structured);
    } catch (const conversion_error& e) {
      call_tool_result sent;
      sent.structured_content = std::move(structured);
      throw tool_call_error("the result of tool " + tool + " does not convert: " + e.what(), std::move(sent));
    }
  }
}

/// A result of `Method` as its type; one that does not read is malformed_result.
template <class Method>
typename Method::result method_result(const json::object& result) {
  static_assert(Method::kind == method_kind::request, "mcp::client::request: a notification is sent with notify");
  const read_options lenient{.skip_mistyped_optionals = true};  // as the client's own readers are
  try {
    return from_json<typename Method::result>(result, lenient);
  } catch (const conversion_error& e) {
    throw malformed_result("the server sent an invalid " + std::string(Method::name) + " result (" + e.what() + ")",
                           std::string(Method::name));
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
  co_return detail::structured_as<Result>(tool, std::move(structured));
}

template <class Method>
asio::awaitable<typename Method::result> client::request(typename Method::params params) {
  call_options defaults;
  co_return co_await request<Method>(std::move(params), std::move(defaults));
}

template <class Method>
asio::awaitable<typename Method::result> client::request(typename Method::params params, call_options options) {
  json::object result =
      co_await request(std::string(Method::name), detail::method_params(std::move(params)), std::move(options));
  co_return detail::method_result<Method>(result);
}

template <class Method>
asio::awaitable<void> client::notify(typename Method::params params) {
  static_assert(Method::kind == method_kind::notification, "mcp::client::notify: a request is sent with request");
  co_await notify(std::string(Method::name), detail::method_params(std::move(params)));
}

}  // namespace mcp
