#include "commands.hpp"

#include "failure.hpp"
#include "json_output.hpp"
#include "tasks.hpp"
#include "text_output.hpp"

#include <mcp/error.hpp>
#include <mcp/protocol/methods.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/system_error.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

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

std::string milliseconds_text(double ms) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, ms < 10 ? "%.2f" : "%.1f", ms);
  return buffer;
}

// ping [COUNT]: COUNT pings, 1 s apart, each round trip printed.
asio::awaitable<int> ping(mcp::client& c, const invocation& inv) {
  unsigned count = 1;
  if (!inv.operands.empty()) {
    const auto& text = inv.operands[0];
    std::from_chars(text.data(), text.data() + text.size(), count);  // checked by the parser
  }
  const auto& name = c.server().server_info.name;
  asio::steady_timer pause(co_await asio::this_coro::executor);
  json::array times;
  for (unsigned i = 0; i < count; ++i) {
    if (i > 0) {
      pause.expires_after(std::chrono::seconds(1));
      co_await pause.async_wait(asio::use_awaitable);
    }
    const auto start = std::chrono::steady_clock::now();
    co_await c.ping();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (inv.json)
      times.push_back(std::round(ms * 1000) / 1000);
    else
      print_text("pong from " + name + " in " + milliseconds_text(ms) + " ms\n");
  }
  if (inv.json) print_json(json::object{{"roundTripMs", std::move(times)}});
  co_return exit_ok;
}

std::vector<std::string> changing_lists(const json::object& capabilities) {
  std::vector<std::string> lists;
  for (const auto* kind : {"tools", "resources", "prompts"})
    if (mcp::declares_feature(capabilities, kind, "listChanged")) lists.emplace_back(kind);
  return lists;
}

std::string and_list(const std::vector<std::string>& words) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i)
    text += (i == 0 ? "" : i + 1 == words.size() ? " and " : ", ") + words[i];
  return text;
}

void print_change(const invocation& inv, std::string method, std::string text, json::object params) {
  if (!inv.json) {
    print_text(text + "\n");
    return;
  }
  json::object line{{"method", std::move(method)}};
  if (!params.empty()) line["params"] = std::move(params);
  print_json(line);
}

// watch [URI...]: the list changes the server announces, and the updates of
// the resources named, until Ctrl-C (which run_session turns into
// stop_watching and exit 0).
asio::awaitable<int> watch(mcp::client& c, const invocation& inv, command_state& state) {
  const auto& server = c.server();
  const auto& name = server.server_info.name;
  const auto lists = changing_lists(server.capabilities);
  if (!inv.operands.empty() && !mcp::declares_feature(server.capabilities, "resources", "subscribe"))
    throw std::runtime_error(name + " offers no resource subscriptions (no resources.subscribe capability)");
  if (inv.operands.empty() && lists.empty())
    throw std::runtime_error(name + " announces no list changes (no listChanged capability): nothing to watch");
  for (const auto& uri : inv.operands) {
    std::string subject = uri;
    co_await c.subscribe(std::move(subject));  // 2026-07-28: returns once the listen stream says so
    state.subscribed.push_back(uri);
  }
  if (mcp::is_modern(server.version) && inv.operands.empty() && !lists.empty()) {
    // The listen stream was opened with the connection: wait for it to listen.
    const auto deadline = std::chrono::steady_clock::now() + inv.timeout.value_or(std::chrono::seconds(30));
    while (!state.acknowledged && std::chrono::steady_clock::now() < deadline) {
      state.wake.expires_at(deadline);
      co_await state.wake.async_wait(asio::as_tuple(asio::use_awaitable));
    }
    if (!state.acknowledged) throw std::runtime_error(name + " did not acknowledge subscriptions/listen");
  }
  state.watching = true;
  std::vector<std::string> what;
  if (!lists.empty()) what.push_back(and_list(lists) + " lists");
  for (const auto& uri : inv.operands) what.push_back(uri);
  std::cout.flush();
  std::cerr << "watching " << and_list(what) << " of " << name << "; Ctrl-C stops" << std::endl;
  for (;;) {
    state.wake.expires_at(asio::steady_timer::time_point::max());
    co_await state.wake.async_wait(asio::as_tuple(asio::use_awaitable));
    if (state.disconnected) throw mcp::error(asio::error::connection_aborted);
  }
}

}  // namespace

void prepare_command(mcp::client& client, const invocation& inv, std::shared_ptr<command_state> state) {
  if (inv.command != "watch") return;
  client.on_list_changed([&inv](std::string_view what) {
    const std::string kind(what);
    print_change(inv, "notifications/" + kind + "/list_changed", kind + " list changed", {});
  });
  client.on_resource_updated([&inv](const std::string& uri) {
    json::object params{{"uri", uri}};
    print_change(inv, mcp::methods::notifications_resources_updated, "resource updated " + uri, std::move(params));
  });
  client.on_notification([state](const mcp::notification& note) {
    if (note.method == mcp::methods::notifications_subscriptions_acknowledged) {
      state->acknowledged = true;
      state->wake.cancel();
    }
    if (state->requests) state->requests->notice(note);
  });
  client.on_state_change([state](mcp::connection_state now) {
    if (now != mcp::connection_state::disconnected) return;
    state->disconnected = true;
    state->wake.cancel();
  });
}

asio::awaitable<void> stop_watching(mcp::client& client, command_state& state) {
  for (const auto& uri : state.subscribed) {
    try {
      std::string subject = uri;
      co_await client.unsubscribe(std::move(subject));
    } catch (const std::exception&) {
      // the server went away: nothing to undo
    }
  }
}

asio::awaitable<int> run_command(mcp::client& client, const invocation& inv, progress_bar& bar,
                                 command_state& state) {
  const auto& command = inv.command;
  if (command == "info") co_return co_await info(client, inv);
  if (command == "tools") co_return co_await tools(client, inv);
  if (command == "call") co_return co_await call(client, inv, bar);
  if (command == "resources") co_return co_await resources(client, inv);
  if (command == "read") co_return co_await read(client, inv);
  if (command == "prompts") co_return co_await prompts(client, inv);
  if (command == "prompt") co_return co_await prompt(client, inv);
  if (command == "complete") co_return co_await complete(client, inv);
  if (command == "ping") co_return co_await ping(client, inv);
  if (command == "watch") co_return co_await watch(client, inv, state);
  if (command == "tasks") co_return co_await run_tasks(client, inv, bar);
  throw usage_error("unknown command '" + command + "'");
}

}  // namespace caduceus
