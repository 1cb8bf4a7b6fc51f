#include "commands.hpp"

#include "failure.hpp"
#include "json_output.hpp"
#include "text_output.hpp"

#include <iostream>

namespace caduceus {

namespace {

namespace asio = boost::asio;

// Everything here follows docs/compilers.md: a co_await line passes named
// values only, nothing built in place.

void print_text(const std::string& text) { std::cout << text << std::flush; }

asio::awaitable<int> info(mcp::client& c, const invocation& inv) {
  const auto& server = c.server();
  if (inv.json)
    print_json(info_json(server));
  else
    print_text(info_text(server));
  co_return exit_ok;
}

asio::awaitable<int> tools(mcp::client& c, const invocation& inv) {
  const auto list = co_await c.list_tools();
  if (inv.json)
    print_json(tools_json(list));
  else
    print_text(tools_text(list));
  co_return exit_ok;
}

asio::awaitable<int> call(mcp::client& c, const invocation& inv, progress_bar& bar) {
  mcp::call_options options;
  options.on_progress = [&bar](const mcp::progress_update& update) { bar.update(update); };
  std::string name = inv.operands.at(0);
  json::object arguments = inv.tool_arguments;
  const auto result = co_await c.call_tool(std::move(name), std::move(arguments), std::move(options));
  bar.clear();
  if (inv.json)
    print_json(result.to_json());
  else
    print_text(tool_result_text(result));
  co_return result.is_error ? exit_failure : exit_ok;
}

asio::awaitable<int> resources(mcp::client& c, const invocation& inv) {
  const auto& capabilities = c.server().capabilities;
  std::vector<mcp::resource_info> list;
  std::vector<mcp::resource_template_info> templates;
  // A server without the capability has nothing to list (and may answer -32601).
  if (capabilities.contains("resources")) {
    list = co_await c.list_resources();
    templates = co_await c.list_resource_templates();
  }
  if (inv.json)
    print_json(resources_json(list, templates));
  else
    print_text(resources_text(list, templates));
  co_return exit_ok;
}

asio::awaitable<int> read(mcp::client& c, const invocation& inv) {
  std::string uri = inv.operands.at(0);
  const auto contents = co_await c.read_resource(std::move(uri));
  if (inv.json)
    print_json(contents_json(contents));
  else
    print_text(contents_text(contents));
  co_return exit_ok;
}

asio::awaitable<int> prompts(mcp::client& c, const invocation& inv) {
  std::vector<mcp::prompt_info> list;
  if (c.server().capabilities.contains("prompts")) list = co_await c.list_prompts();
  if (inv.json)
    print_json(prompts_json(list));
  else
    print_text(prompts_text(list));
  co_return exit_ok;
}

asio::awaitable<int> prompt(mcp::client& c, const invocation& inv) {
  std::string name = inv.operands.at(0);
  std::map<std::string, std::string> arguments = inv.prompt_arguments;
  const auto result = co_await c.get_prompt(std::move(name), std::move(arguments));
  if (inv.json)
    print_json(prompt_json(result));
  else
    print_text(prompt_text(result));
  co_return exit_ok;
}

// complete prompt NAME ARG VALUE | complete resource URI_TEMPLATE VAR VALUE
asio::awaitable<int> complete(mcp::client& c, const invocation& inv) {
  std::string target = inv.operands.at(1);
  std::string argument = inv.operands.at(2);
  std::string value = inv.operands.at(3);
  mcp::completion_context context;
  mcp::completion result;
  if (inv.operands.at(0) == "prompt")
    result = co_await c.complete_prompt_argument(std::move(target), std::move(argument), std::move(value),
                                                 std::move(context));
  else
    result = co_await c.complete_template_variable(std::move(target), std::move(argument), std::move(value),
                                                   std::move(context));
  if (inv.json)
    print_json(completion_json(result));
  else
    print_text(completion_text(result));
  co_return exit_ok;
}

}  // namespace

asio::awaitable<int> run_command(mcp::client& client, const invocation& inv, progress_bar& bar) {
  const auto& command = inv.command;
  if (command == "info") co_return co_await info(client, inv);
  if (command == "tools") co_return co_await tools(client, inv);
  if (command == "call") co_return co_await call(client, inv, bar);
  if (command == "resources") co_return co_await resources(client, inv);
  if (command == "read") co_return co_await read(client, inv);
  if (command == "prompts") co_return co_await prompts(client, inv);
  if (command == "prompt") co_return co_await prompt(client, inv);
  if (command == "complete") co_return co_await complete(client, inv);
  throw usage_error("unknown command '" + command + "'");
}

}  // namespace caduceus
