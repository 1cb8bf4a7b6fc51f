// The MCP Inspector's command line (npm @modelcontextprotocol/inspector, a
// client we did not write) through `caduceus gateway`: in front of the
// TypeScript server-everything over Streamable HTTP and over HTTP+SSE, and
// with two servers behind one endpoint under their names.

#include "caduceus_cli.hpp"
#include "everything_server.hpp"
#include "node_process.hpp"

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace mcp::test {
namespace {

namespace json = boost::json;
using namespace std::chrono_literals;

const std::string inspector_launcher =
    std::string(CADUCEUS_INTEROP_DIR) + "/node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js";

/// `mcp-inspector --cli ARGS...`: what it printed, a JSON document, or a
/// failure that says what it wrote.
json::value inspect(std::vector<std::string> args) {
  args.insert(args.begin(), {node_program(), inspector_launcher, "--cli"});
  // Its catalog of servers is a file of its own, not the user's.
  const auto catalog = std::filesystem::temp_directory_path() / ("caduceus-inspector-" + std::to_string(::getpid()));
  args.insert(args.begin(), {std::string("/usr/bin/env"), "MCP_CATALOG_PATH=" + catalog.string()});
  const auto result = run_command(std::move(args), 60s);
  std::filesystem::remove(catalog);
  if (!result.finished || result.exit_code != 0)
    throw std::runtime_error("the inspector failed: " + describe(result));
  return json::parse(result.out);
}

std::vector<std::string> tool_names(const json::value& listed) {
  std::vector<std::string> names;
  for (const auto& tool : listed.at("tools").as_array()) names.emplace_back(tool.at("name").as_string());
  return names;
}

bool has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// (A function: everything_script() reads a string of another file, which a
// constant here could be initialized before.)
std::string ts_everything() { return "'" + node_program() + "' '" + everything_script() + "' stdio"; }

TEST(InspectorCli, ListsAndCallsThroughTheGateway) {
  gateway_process gateway(ts_everything());
  const auto tools = tool_names(inspect({gateway.url, "--method", "tools/list"}));
  EXPECT_TRUE(has(tools, "echo"));
  const auto echoed = inspect({gateway.url, "--method", "tools/call", "--tool-name", "echo", "--tool-arg", "message=hi"});
  EXPECT_NE(json::serialize(echoed).find("hi"), std::string::npos) << echoed;
  const auto prompts = inspect({gateway.url, "--method", "prompts/list"});
  EXPECT_FALSE(prompts.at("prompts").as_array().empty()) << prompts;
  // The older transport, HTTP+SSE, at /sse.
  const auto sse_url = gateway.url.substr(0, gateway.url.rfind('/')) + "/sse";
  const auto over_sse = tool_names(inspect({sse_url, "--transport", "sse", "--method", "tools/list"}));
  EXPECT_EQ(over_sse, tools);
}

TEST(InspectorCli, SeesTwoServersUnderTheirNames) {
  const auto ours = "'" + test_program("everything-server") + "' --stdio";
  gateway_process gateway(gateway_arguments{{"--upstream", "ts", "--stdio", ts_everything(), "--upstream", "ours",
                                             "--stdio", ours, "--deny-tool", "fail"}});
  const auto tools = tool_names(inspect({gateway.url, "--method", "tools/list"}));
  EXPECT_TRUE(has(tools, "ts.echo"));
  EXPECT_TRUE(has(tools, "ours.add"));
  EXPECT_FALSE(has(tools, "ours.fail"));
  const auto sum = inspect({gateway.url, "--method", "tools/call", "--tool-name", "ours.add", "--tool-arg", "a=2", "b=5"});
  EXPECT_EQ(sum.at("structuredContent").at("sum"), 7) << sum;
  const auto echoed = inspect({gateway.url, "--method", "tools/call", "--tool-name", "ts.echo", "--tool-arg", "message=hey"});
  EXPECT_NE(json::serialize(echoed).find("hey"), std::string::npos) << echoed;
}

}  // namespace
}  // namespace mcp::test
