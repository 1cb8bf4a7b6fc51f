#pragma once
// The completion-token forms of the client's operations (client::async_...),
// each the coroutine of the same name run through detail::launch
// (async_launch.hpp). Cancellation: the coroutine's, as client.hpp says for
// each; a cancellation of any type emitted on the slot bound to the token
// counts as terminal.

#include <mcp/client/client.hpp>
#include <mcp/client/impl/async_launch.hpp>

#include <utility>

namespace mcp {

template <class CompletionToken>
auto client::async_connect(std::unique_ptr<message_transport> transport, CompletionToken&& token) {
  return detail::async_run(connect(std::move(transport)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_connect(transport_factory factory, CompletionToken&& token) {
  return detail::async_run(connect(std::move(factory)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_request(std::string method, json::object params, CompletionToken&& token) {
  return detail::async_run(request(std::move(method), std::move(params)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_request(std::string method, json::object params, call_options options,
                           CompletionToken&& token) {
  return detail::async_run(request(std::move(method), std::move(params), std::move(options)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_notify(std::string method, json::object params, CompletionToken&& token) {
  return detail::async_run(notify(std::move(method), std::move(params)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class Method, class CompletionToken>
auto client::async_request(typename Method::params params, CompletionToken&& token) {
  return async_request<Method>(std::move(params), call_options{}, std::forward<CompletionToken>(token));
}

template <class Method, class CompletionToken>
auto client::async_request(typename Method::params params, call_options options, CompletionToken&& token) {
  static_assert(Method::kind == method_kind::request, "mcp::client::async_request: a notification is sent with async_notify");
  return detail::async_run_read<typename Method::result>(
      request(std::string(Method::name), detail::method_params(std::move(params)), std::move(options)),
      get_executor(), [](json::object result) { return detail::method_result<Method>(result); },
      std::forward<CompletionToken>(token));
}

template <class Method, class CompletionToken>
auto client::async_notify(typename Method::params params, CompletionToken&& token) {
  static_assert(Method::kind == method_kind::notification, "mcp::client::async_notify: a request is sent with async_request");
  return async_notify(std::string(Method::name), detail::method_params(std::move(params)),
                      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_ping(CompletionToken&& token) {
  return detail::async_run(ping(), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_ping(call_options options, CompletionToken&& token) {
  return detail::async_run(ping(std::move(options)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_list_tools(CompletionToken&& token) {
  return detail::async_run(list_tools(), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_call_tool(std::string name, json::object arguments, CompletionToken&& token) {
  return detail::async_run(call_tool(std::move(name), std::move(arguments)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_call_tool(std::string name, json::object arguments, call_options options,
                             CompletionToken&& token) {
  return detail::async_run(call_tool(std::move(name), std::move(arguments), std::move(options)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class Result, class Arguments, class CompletionToken>
auto client::async_call_tool_as(std::string name, Arguments arguments, CompletionToken&& token) {
  return async_call_tool_as<Result>(std::move(name), std::move(arguments), call_options{},
                                    std::forward<CompletionToken>(token));
}

template <class Result, class Arguments, class CompletionToken>
auto client::async_call_tool_as(std::string name, Arguments arguments, call_options options,
                                CompletionToken&& token) {
  json::object args = detail::tool_arguments(arguments);
  return detail::async_run_read<Result>(
      call_tool_structured(name, std::move(args), std::move(options)), get_executor(),
      [tool = name](json::value structured) { return detail::structured_as<Result>(tool, std::move(structured)); },
      std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_call_tool_structured(std::string name, json::object arguments, call_options options,
                                        CompletionToken&& token) {
  return detail::async_run(call_tool_structured(std::move(name), std::move(arguments), std::move(options)),
                           get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_output_schema(std::string tool, CompletionToken&& token) {
  return detail::async_run(output_schema(std::move(tool)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_call_tool_as_task(std::string name, json::object arguments, CompletionToken&& token) {
  return detail::async_run(call_tool_as_task(std::move(name), std::move(arguments)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_call_tool_as_task(std::string name, json::object arguments, task_call_options options,
                                     CompletionToken&& token) {
  return detail::async_run(call_tool_as_task(std::move(name), std::move(arguments), std::move(options)),
                           get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_get_task(std::string id, CompletionToken&& token) {
  return detail::async_run(get_task(std::move(id)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_wait_for_task(std::string id, CompletionToken&& token) {
  return detail::async_run(wait_for_task(std::move(id)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_wait_for_task(std::string id, task_wait_options options, CompletionToken&& token) {
  return detail::async_run(wait_for_task(std::move(id), std::move(options)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_cancel_task(std::string id, CompletionToken&& token) {
  return detail::async_run(cancel_task(std::move(id)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_list_tasks(CompletionToken&& token) {
  return detail::async_run(list_tasks(), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_list_tasks_page(std::string cursor, CompletionToken&& token) {
  return detail::async_run(list_tasks_page(std::move(cursor)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_list_resources(CompletionToken&& token) {
  return detail::async_run(list_resources(), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_list_resource_templates(CompletionToken&& token) {
  return detail::async_run(list_resource_templates(), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_read_resource(std::string uri, CompletionToken&& token) {
  return detail::async_run(read_resource(std::move(uri)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_subscribe(std::string uri, CompletionToken&& token) {
  return detail::async_run(subscribe(std::move(uri)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_unsubscribe(std::string uri, CompletionToken&& token) {
  return detail::async_run(unsubscribe(std::move(uri)), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_list_prompts(CompletionToken&& token) {
  return detail::async_run(list_prompts(), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_get_prompt(std::string name, std::map<std::string, std::string> arguments,
                              CompletionToken&& token) {
  return detail::async_run(get_prompt(std::move(name), std::move(arguments)), get_executor(),
                           std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_complete_prompt_argument(std::string prompt, std::string argument, std::string value,
                                            completion_context context, CompletionToken&& token) {
  return detail::async_run(
      complete_prompt_argument(std::move(prompt), std::move(argument), std::move(value), std::move(context)),
      get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_complete_template_variable(std::string uri_template, std::string variable, std::string value,
                                              completion_context context, CompletionToken&& token) {
  return detail::async_run(complete_template_variable(std::move(uri_template), std::move(variable),
                                                      std::move(value), std::move(context)),
                           get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_set_logging_level(logging_level level, CompletionToken&& token) {
  return detail::async_run(set_logging_level(level), get_executor(), std::forward<CompletionToken>(token));
}

template <class CompletionToken>
auto client::async_close(CompletionToken&& token) {
  return detail::async_run(close(), get_executor(), std::forward<CompletionToken>(token));
}

}  // namespace mcp
