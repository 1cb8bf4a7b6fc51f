// `caduceus gateway` with several upstreams behind one endpoint (--upstream):
// each one's tools, prompts and resources under its name, calls routed to it,
// allow and deny lists, a deadline of its own, resource updates renamed, the
// 2026-07-28 era, and an upstream that fails at start-up left out, then
// served once it comes back, with the clients told.

#include "caduceus_cli.hpp"
#include "legacy_client.hpp"
#include "test_support.hpp"

#include <mcp/client/client.hpp>
#include <mcp/transport/http_client.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

const std::string everything_server = "'" + test_program("everything-server") + "' --stdio";

asio::awaitable<void> connect_to(client& c, const std::string& url) {
  auto ex = co_await asio::this_coro::executor;
  http_client_options options;
  auto transport = co_await connect_http(ex, url, std::move(options));
  co_await c.connect(std::move(transport));
}

/// The names in a list result's `key` array, each item's `field`.
std::vector<std::string> names_in(const json::object& result, std::string_view key, std::string_view field = "name") {
  std::vector<std::string> names;
  for (const auto& item : result.at(key).as_array()) names.emplace_back(item.at(field).as_string());
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The JSON-RPC error code a request got; 0 when it succeeded.
asio::awaitable<int> error_code_of(client& c, std::string method, json::object params) {
  try {
    co_await c.request(std::move(method), std::move(params));
  } catch (const protocol_error& e) {
    co_return e.code().value();
  }
  co_return 0;
}

TEST(GatewayAggregate, ServesEachUpstreamUnderItsName) {
  gateway_process gateway(gateway_arguments{{"--upstream", "ev", "--stdio", everything_server, "--deny-tool", "fa*",
                                             "--upstream", "slow", "--stdio", slow_server_command}});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_only());
    co_await connect_to(c, gateway.url);
    EXPECT_EQ(c.server().server_info.name, "caduceus-gateway");

    const auto tools = names_in(co_await c.request("tools/list"), "tools");
    EXPECT_TRUE(has(tools, "ev.add"));
    EXPECT_FALSE(has(tools, "ev.fail"));  // denied
    EXPECT_FALSE(has(tools, "add"));
    json::object sum{{"a", 2}, {"b", 3}};
    EXPECT_EQ(first_text(co_await c.call_tool("ev.add", std::move(sum))), "5");
    const auto pid = first_text(co_await c.call_tool("slow.pid"));  // (slow-server lists no tools, and has them)
    EXPECT_GT(std::stoi(pid), 0);
    json::object call_denied{{"name", "ev.fail"}, {"arguments", json::object()}};
    EXPECT_EQ(co_await error_code_of(c, "tools/call", std::move(call_denied)), -32602);
    json::object call_unknown{{"name", "nowhere.add"}, {"arguments", json::object()}};
    EXPECT_EQ(co_await error_code_of(c, "tools/call", std::move(call_unknown)), -32602);

    const auto resources = names_in(co_await c.request("resources/list"), "resources", "uri");
    EXPECT_TRUE(has(resources, "ev+demo://readme"));
    const auto read = co_await c.read_resource("ev+demo://readme");
    EXPECT_FALSE(read.empty());
    EXPECT_EQ(read.empty() ? "" : read.front().uri, "ev+demo://readme");
    const auto templates = names_in(co_await c.request("resources/templates/list"), "resourceTemplates", "uriTemplate");
    EXPECT_FALSE(templates.empty());
    for (const auto& t : templates) EXPECT_TRUE(t.starts_with("ev+")) << t;

    const auto prompts = names_in(co_await c.request("prompts/list"), "prompts");
    EXPECT_TRUE(has(prompts, "ev.greeting"));
    json::object greet{{"name", "ev.greeting"}, {"arguments", {{"name", "Ann"}}}};
    const auto greeting = co_await c.request("prompts/get", std::move(greet));
    EXPECT_NE(json::serialize(greeting).find("Ann"), std::string::npos) << greeting;

    // A resource link in a tool's result names the resource as the client reads it.
    const auto media = co_await c.call_tool("ev.media");
    bool linked = false;
    for (const auto& block : media.content)
      if (block.at("type") == "resource_link") linked = block.at("uri") == "ev+demo://readme";
    EXPECT_TRUE(linked);
    co_await c.close();
  }, 40s);
}

TEST(GatewayAggregate, AnUpstreamKeepsItsOwnDeadlineAndItsUpdatesTheirNames) {
  gateway_process gateway(gateway_arguments{{"--upstream", "slow", "--stdio", slow_server_command, "--timeout", "1",
                                             "--upstream", "ev", "--stdio", everything_server}});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_only());
    std::vector<std::string> updated;
    c.on_resource_updated([&](const std::string& uri) { updated.push_back(uri); });
    co_await connect_to(c, gateway.url);
    json::object long_sleep{{"name", "slow.sleep"}, {"arguments", {{"ms", 5000}}}};
    EXPECT_EQ(co_await error_code_of(c, "tools/call", std::move(long_sleep)), -32603);  // its 1 s, not the default
    json::object sum{{"a", 1}, {"b", 1}};
    EXPECT_EQ(first_text(co_await c.call_tool("ev.add", std::move(sum))), "2");

    co_await c.subscribe("ev+demo://items/1");
    json::object touched{{"uri", "demo://items/1"}};  // (the tool's own argument: the upstream's name)
    co_await c.call_tool("ev.touch", std::move(touched));
    const std::function<bool()> heard = [&] { return !updated.empty(); };
    EXPECT_TRUE(co_await wait_until(heard, 10s));
    EXPECT_EQ(updated.empty() ? "" : updated.front(), "ev+demo://items/1");
    co_await c.close();
  }, 40s);
}

TEST(GatewayAggregate, AModernClientIsServedAndAnswersWhatAnUpstreamAsks) {
  gateway_process gateway(gateway_arguments{{"--upstream", "ev", "--stdio", everything_server,
                                             "--upstream", "slow", "--stdio", slow_server_command}});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex);
    c.on_elicitation([&](json::object) -> asio::awaitable<json::object> {
      co_return json::object{{"action", "accept"}, {"content", {{"confirm", true}}}};
    });
    co_await connect_to(c, gateway.url);
    EXPECT_EQ(c.server().version, protocol_version::v2026_07_28);
    const auto tools = names_in(co_await c.request("tools/list"), "tools");
    EXPECT_TRUE(has(tools, "ev.confirm"));
    json::object question{{"question", "Ship it?"}};
    const auto confirmed = co_await c.call_tool("ev.confirm", std::move(question));
    EXPECT_EQ(first_text(confirmed), "action=accept, confirm=true");
  }, 40s);
}

TEST(GatewayAggregate, AnUpstreamDownAtStartIsLeftOutThenServedWhenItComesBack) {
  const auto dir = std::filesystem::temp_directory_path() / ("caduceus-aggregate-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto ready = (dir / "ready").string();
  // Fails to start until the file exists.
  const auto late = "sh -c \"test -e '" + ready + "' && exec '" + test_program("everything-server") + "' --stdio\"";
  gateway_process gateway(gateway_arguments{{"--upstream", "ev", "--stdio", everything_server,
                                             "--upstream", "late", "--stdio", late, "--warm", "0"}});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_only());
    int tools_changed = 0;
    c.on_list_changed([&](std::string_view what) { tools_changed += what == "tools"; });
    co_await connect_to(c, gateway.url);
    auto tools = names_in(co_await c.request("tools/list"), "tools");
    EXPECT_TRUE(has(tools, "ev.echo"));
    EXPECT_FALSE(has(tools, "late.echo"));
    json::object echo{{"name", "late.echo"}, {"arguments", {{"text", "hi"}}}};
    EXPECT_EQ(co_await error_code_of(c, "tools/call", echo), -32603);  // unavailable, said so

    std::ofstream(ready).put('\n');
    const std::function<bool()> told = [&] { return tools_changed > 0; };
    EXPECT_TRUE(co_await wait_until(told, 20s)) << "no tools/list_changed when the upstream came back";
    tools = names_in(co_await c.request("tools/list"), "tools");
    EXPECT_TRUE(has(tools, "late.echo"));
    const auto echoed = co_await c.request("tools/call", std::move(echo));
    EXPECT_NE(json::serialize(echoed).find("hi"), std::string::npos) << echoed;
    co_await c.close();
  }, 60s);
  std::filesystem::remove_all(dir);
}

// A tool that runs as a task: its id bears its upstream's name, and the
// task's status, result and listing go to that upstream, in both eras.
TEST(GatewayAggregate, AnUpstreamsTasksGoThroughUnderItsName) {
  const auto conformance = "'" + test_program("conformance-server") + "' --stdio";
  gateway_process gateway(gateway_arguments{{"--upstream", "conf", "--stdio", conformance,
                                             "--upstream", "ev", "--stdio", everything_server}});
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    for (const bool modern : {false, true}) {
      client c(ex, modern ? client_options{} : legacy_only());
      co_await connect_to(c, gateway.url);
      json::object label{{"seconds", 0.2}, {"label", modern ? "modern" : "legacy"}};
      const auto task = co_await c.call_tool_as_task("conf.slow_compute", std::move(label));
      EXPECT_TRUE(task.id.starts_with("conf.")) << task.id;
      const auto result = co_await c.wait_for_task(task.id);
      EXPECT_EQ(first_text(result), std::string("Computed ") + (modern ? "modern" : "legacy") + " in 0.200000 s");
      const auto again = co_await c.get_task(task.id);
      EXPECT_EQ(again.id, task.id);
      if (!modern) {  // (tasks/list is 2025-11-25's)
        const auto listed = co_await c.list_tasks();
        EXPECT_TRUE(std::any_of(listed.begin(), listed.end(), [&](const task_info& t) { return t.id == task.id; }));
      }
      json::object unknown{{"taskId", "nowhere.1"}};
      EXPECT_EQ(co_await error_code_of(c, "tasks/get", std::move(unknown)), -32602);
      co_await c.close();
    }
  }, 40s);
}

// --config: the upstreams as a mapping of names to their options.
TEST(GatewayAggregate, AConfigurationFileNamesTheUpstreams) {
  const auto path = std::filesystem::temp_directory_path() / ("caduceus-aggregate-" + std::to_string(::getpid()) + ".yaml");
  {
    std::ofstream file(path);
    file << "http: 127.0.0.1:0\n"
         << "upstreams:\n"
         << "  ev:\n"
         << "    stdio: \"" << everything_server << "\"\n"
         << "    deny-tool: [fail, toggle_*]\n"
         << "  slow:\n"
         << "    stdio: " << slow_server_command << "\n"
         << "    timeout: 1\n";
  }
  const auto tried = cli({"gateway", "--config", path.string(), "--help"});
  if (tried.err.find("reads no configuration file") != std::string::npos) {
    std::filesystem::remove(path);
    GTEST_SKIP() << "this build has no yaml-cpp it can link (a libc++ build)";
  }
  child_process gateway({caduceus_program, "gateway", "--config", path.string()});
  const auto url = gateway.read_line(20s);
  std::filesystem::remove(path);
  run_test([&]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    client c(ex, legacy_only());
    co_await connect_to(c, url);
    const auto tools = names_in(co_await c.request("tools/list"), "tools");
    EXPECT_TRUE(has(tools, "ev.add"));
    EXPECT_FALSE(has(tools, "ev.fail"));
    EXPECT_FALSE(has(tools, "ev.toggle_bonus"));
    json::object long_sleep{{"name", "slow.sleep"}, {"arguments", {{"ms", 5000}}}};
    EXPECT_EQ(co_await error_code_of(c, "tools/call", std::move(long_sleep)), -32603);
    co_await c.close();
  }, 40s);
  gateway.stop(10s);
}

TEST(GatewayAggregate, UsageMistakesAreFoundBeforeAnythingStarts) {
  auto refused = [](std::vector<std::string> args, std::string_view says) {
    args.insert(args.begin(), "gateway");
    const auto r = cli(args);
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  };
  refused({"--deny-tool", "x", "--upstream", "a", "--stdio", "x"}, "after the --upstream NAME");
  refused({"--stdio", "x", "--upstream", "a", "--stdio", "y"}, "after the --upstream NAME it belongs to");
  refused({"--upstream", "a", "--stdio", "x", "--upstream", "a", "--stdio", "y"}, "two upstreams are named 'a'");
  refused({"--upstream", "a.b", "--stdio", "x"}, "without the separator");
  refused({"--upstream", "my_files", "--stdio", "x"}, "a letter, then letters, digits and '-'");  // (URI schemes have no '_')
  refused({"--upstream", "a", "--http", "127.0.0.1:0"}, "say which server --upstream a is");
}

}  // namespace
}  // namespace mcp::test
