// The typed calls of the client: every client-to-server method of the spec,
// lists followed through their pages.

#include "client_impl.hpp"
#include "../protocol/wire_readers.hpp"
#include "list_all.hpp"

#include <mcp/log.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>

namespace mcp {

using detail::list_all;

namespace {

json::object completion_params(completion_reference ref, std::string argument, std::string value,
                               const completion_context& context) {
  complete_params params{std::move(ref), {std::move(argument), std::move(value)}};
  if (!context.empty()) params.context = completion_request_context{context};
  return detail::method_params(std::move(params));
}

}  // namespace

asio::awaitable<std::vector<tool_info>> client::list_tools() {
  auto keep = impl_;
  auto tools = co_await list_all(*this, methods::tools_list, "tools", detail::read_tool);
  if (keep->modern) {
    // A tool whose x-mcp-header annotations break the rules is left out,
    // so that it does not keep the others from being used.
    keep->mirrored.clear();
    std::erase_if(tools, [&](const tool_info& tool) {
      std::string why;
      auto params = detail::mirrored_params(tool.input_schema, why);
      if (!params) sdk_log(log_category::client, log_level::warn, "ignoring a tool", {{"tool", tool.name}, {"reason", why}});
      else if (!params->empty()) keep->mirrored[tool.name] = std::move(*params);
      return !params;
    });
  }
  keep->output_schemas.emplace();
  for (const auto& tool : tools) (*keep->output_schemas)[tool.name].schema = tool.output_schema;
  co_return tools;
}

asio::awaitable<call_tool_result> client::call_tool(std::string name, json::object arguments) {
  // Not a coroutine: the call with default options is the awaitable itself.
  return call_tool(std::move(name), std::move(arguments), call_options{});
}

asio::awaitable<call_tool_result> client::call_tool(std::string name, json::object arguments,
                                                    call_options options) {
  auto keep = impl_;
  const std::string tool = name;
  auto settings = keep->settings(options);
  if (const auto it = keep->mirrored.find(tool); keep->modern && it != keep->mirrored.end()) {
    settings.headers = detail::mirror_arguments(it->second, arguments);
    // The transport adds them as they are: the values go encoded as MCP says.
    for (auto& header : settings.headers) header.second = detail::encode_header_value(header.second);
  }
  auto params = detail::method_params(call_tool_params{std::move(name), std::move(arguments)});
  auto reply = co_await keep->call(methods::tools_call, std::move(params), std::move(settings));
  auto result = detail::read_call_tool_result(std::move(reply));
  if (!result.is_error) keep->check_output(tool, result);
  co_return result;
}

asio::awaitable<json::value> client::call_tool_structured(std::string name, json::object arguments,
                                                          call_options options) {
  const std::string tool = name;
  co_await output_schema(tool);  // known before the call, so call_tool checks the result
  auto result = co_await call_tool(std::move(name), std::move(arguments), std::move(options));
  if (result.is_error) {
    const auto text = result.text_content();
    throw tool_call_error("tool " + tool + " failed" + (text.empty() ? "" : ": " + text), std::move(result));
  }
  if (!result.structured_content)
    throw tool_call_error("tool " + tool + " sent no structuredContent", std::move(result));
  co_return *result.structured_content;
}

void client::impl::check_output(const std::string& tool, const call_tool_result& result) {
  if (!output_schemas) return;
  const auto it = output_schemas->find(tool);
  if (it == output_schemas->end() || !it->second.schema) return;
  auto& check = it->second;
  if (!result.structured_content)
    throw tool_call_error("tool " + tool + " declares an outputSchema but sent no structuredContent", result);
  if (!check.validator) {
    try {
      check.validator = std::make_shared<const schema_validator>(*check.schema);
    } catch (const mcp::invalid_argument& e) {
      // The server's schema is broken; its results cannot be checked.
      sdk_log(log_category::client, log_level::warn, "a tool's outputSchema does not compile",
              {{"tool", tool}, {"error", e.what()}});
      check.schema.reset();
      return;
    }
  }
  const auto errors = check.validator->validate(*result.structured_content);
  if (errors.empty()) return;
  std::string why;
  for (const auto& error : errors) why += (why.empty() ? "" : "; ") + error.to_string();
  throw tool_call_error("the structuredContent of tool " + tool + " does not match its outputSchema: " + why,
                        result);
}

tool_call_error::tool_call_error(const std::string& message, call_tool_result result)
    : error(result.is_error ? boost::system::error_code(sdk_errc::tool_failed)
                            : make_error_code(boost::system::errc::bad_message),
            message, whole_message{}),
      result_(std::make_shared<const call_tool_result>(std::move(result))) {}

asio::awaitable<std::optional<json::object>> client::output_schema(std::string tool) {
  auto keep = impl_;
  if (!keep->output_schemas || !keep->output_schemas->contains(tool)) co_await list_tools();
  const auto it = keep->output_schemas->find(tool);
  if (it == keep->output_schemas->end()) co_return std::nullopt;
  co_return it->second.schema;
}

asio::awaitable<std::vector<resource_info>> client::list_resources() {
  co_return co_await list_all(*this, methods::resources_list, "resources", detail::read_resource);
}

asio::awaitable<std::vector<resource_template_info>> client::list_resource_templates() {
  co_return co_await list_all(*this, methods::resources_templates_list, "resourceTemplates",
                              detail::read_resource_template);
}

asio::awaitable<std::vector<resource_contents>> client::read_resource(std::string uri) {
  auto params = detail::method_params(resource_params{std::move(uri)});
  const auto result = co_await request(methods::resources_read, std::move(params));
  // (As the list calls: a result without its array is not an empty one.)
  co_return detail::read_resource_contents(result);
}

asio::awaitable<void> client::subscribe(std::string uri) {
  auto keep = impl_;
  if (keep->modern) {  // the listen stream names the resources it follows
    keep->subscriptions.insert(std::move(uri));
    keep->restart_listen(keep->link);
    co_await keep->listen_acknowledgement();
    co_return;
  }
  auto params = detail::method_params(resource_params{uri});
  co_await request(methods::resources_subscribe, std::move(params));
  keep->subscriptions.insert(std::move(uri));
}

asio::awaitable<void> client::unsubscribe(std::string uri) {
  auto keep = impl_;
  if (keep->modern) {
    keep->subscriptions.erase(uri);
    keep->restart_listen(keep->link);
    co_return;
  }
  auto params = detail::method_params(resource_params{uri});
  co_await request(methods::resources_unsubscribe, std::move(params));
  keep->subscriptions.erase(uri);
}

asio::awaitable<std::vector<prompt_info>> client::list_prompts() {
  co_return co_await list_all(*this, methods::prompts_list, "prompts", detail::read_prompt);
}

asio::awaitable<get_prompt_result> client::get_prompt(std::string name,
                                                      std::map<std::string, std::string> arguments) {
  auto params = detail::method_params(get_prompt_params{std::move(name), std::move(arguments)});
  const auto result = co_await request(methods::prompts_get, std::move(params));
  co_return detail::read_prompt_result(result);
}

asio::awaitable<completion> client::complete_prompt_argument(std::string prompt, std::string argument,
                                                             std::string value, completion_context context) {
  completion_reference ref{"ref/prompt", std::move(prompt)};
  auto params = completion_params(std::move(ref), std::move(argument), std::move(value), context);
  const auto result = co_await request(methods::completion_complete, std::move(params));
  co_return detail::read_completion(result);
}

asio::awaitable<completion> client::complete_template_variable(std::string uri_template, std::string variable,
                                                               std::string value, completion_context context) {
  completion_reference ref{"ref/resource", std::nullopt, std::move(uri_template)};
  auto params = completion_params(std::move(ref), std::move(variable), std::move(value), context);
  const auto result = co_await request(methods::completion_complete, std::move(params));
  co_return detail::read_completion(result);
}

asio::awaitable<void> client::set_logging_level(logging_level level) {
  auto keep = impl_;
  if (keep->modern) {  // every later request asks for it in its envelope
    keep->log_level = level;
    co_return;
  }
  auto params = detail::method_params(set_level_params{level});
  co_await request(methods::logging_set_level, std::move(params));
  keep->log_level = level;
}

void client::on_notification(std::function<void(const notification&)> handler) {
  impl_->on_notification = std::move(handler);
}
void client::on_log(std::function<void(const log_message&)> handler) { impl_->on_log = std::move(handler); }
void client::on_list_changed(std::function<void(std::string_view)> handler) {
  impl_->on_list_changed = std::move(handler);
}
void client::on_resource_updated(std::function<void(const std::string&)> handler) {
  impl_->on_resource_updated = std::move(handler);
}
void client::on_sampling(server_request_handler handler) { impl_->on_sampling = std::move(handler); }
void client::on_elicitation(server_request_handler handler) { impl_->on_elicitation = std::move(handler); }
void client::on_roots(server_request_handler handler) { impl_->on_roots = std::move(handler); }
void client::on_server_request(
    std::function<asio::awaitable<json::object>(std::string method, json::object params)> handler) {
  impl_->on_server_request = std::move(handler);
}

void client::set_roots(std::vector<root> roots) {
  auto& d = *impl_;
  const bool declared = d.roots.has_value() || d.options.capabilities.contains("roots");
  d.roots = std::move(roots);
  // The server asks again when told; before connect the capability is declared
  // instead. A modern server asks for roots with each request that needs them.
  if (!declared || d.state != connection_state::ready || d.modern) return;
  auto announce = [self = impl_]() -> asio::awaitable<void> {
    std::string frame = serialize(notification{methods::notifications_roots_list_changed, {}});
    try {
      co_await self->send_notification(std::move(frame));
    } catch (const std::exception& e) {
      sdk_log(log_category::client, log_level::debug, "roots/list_changed not sent", {{"error", e.what()}});
    }
  };
  asio::co_spawn(d.executor, announce(), asio::detached);
}

}  // namespace mcp
