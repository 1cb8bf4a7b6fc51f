// The client side of the official MCP conformance suite
// (npm @modelcontextprotocol/conformance, `conformance client --command ...`):
// the suite starts a mock server, runs `conformance-client URL` with the
// scenario in MCP_CONFORMANCE_SCENARIO, and judges what the client does.
// Written as a user of the SDK would write a client: connect over HTTP, then
// what the scenario asks for.

#include <mcp/client/client.hpp>
#include <mcp/client/oauth.hpp>
#include <mcp/transport/http_client.hpp>

#include "conformance_client_skills.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/json/parse.hpp>

#include <cstdlib>
#include <iostream>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

// The calls a scenario's context lists (`toolCalls`: name and arguments).
std::vector<std::pair<std::string, json::object>> context_calls() {
  std::vector<std::pair<std::string, json::object>> calls;
  boost::system::error_code ec;
  const auto context = json::parse(env("MCP_CONFORMANCE_CONTEXT"), ec);
  const auto* list = !ec && context.is_object() ? context.get_object().if_contains("toolCalls") : nullptr;
  if (!list || !list->is_array()) return calls;
  for (const auto& call : list->get_array()) {
    const auto* name = call.is_object() ? call.get_object().if_contains("name") : nullptr;
    const auto* arguments = call.is_object() ? call.get_object().if_contains("arguments") : nullptr;
    if (name && name->is_string())
      calls.emplace_back(std::string(name->get_string()),
                         arguments && arguments->is_object() ? arguments->get_object() : json::object{});
  }
  return calls;
}

std::string context_string(const char* key) {
  boost::system::error_code ec;
  const auto context = json::parse(env("MCP_CONFORMANCE_CONTEXT"), ec);
  const auto* value = !ec && context.is_object() ? context.get_object().if_contains(key) : nullptr;
  return value && value->is_string() ? std::string(value->get_string()) : std::string();
}

// The suite's authorization server approves at once: a headless sign-in.
// Its CIMD scenarios expect this metadata document URL as the client id, and
// its pre-registration, client_credentials, enterprise and workload ones
// hand out credentials.
std::shared_ptr<mcp::oauth_client> make_authorizer(asio::any_io_executor ex, const std::string& scenario) {
  mcp::oauth_options options;
  options.client_name = "caduceus-conformance-client";
  options.allow_private_addresses = true;  // the suite's servers are on this machine
  options.client_metadata_url = "https://conformance-test.local/client-metadata.json";
  options.client_id = context_string("client_id");
  options.client_secret = context_string("client_secret");
  options.private_key_pem = context_string("private_key_pem");
  if (auto alg = context_string("signing_algorithm"); !alg.empty()) options.signing_algorithm = alg;
  if (scenario.starts_with("auth/client-credentials")) options.grant = mcp::oauth_grant::client_credentials;
  // Enterprise-managed authorization (SEP-990): the context holds the ID token
  // from the user's sign-in at the enterprise identity provider.
  if (const auto id_token = context_string("idp_id_token"); !id_token.empty()) {
    options.grant = mcp::oauth_grant::enterprise_managed;
    options.identity_provider.token_endpoint = context_string("idp_token_endpoint");
    options.identity_provider.issuer = context_string("idp_issuer");
    options.identity_provider.client_id = context_string("idp_client_id");
    options.identity_provider.id_token = [id_token] { return id_token; };
  }
  // Workload identity federation (SEP-1933): the platform's token for this workload.
  if (const auto workload = context_string("valid_jwt"); !workload.empty()) {
    options.grant = mcp::oauth_grant::workload_identity;
    options.workload_token = [workload] { return workload; };
  }
  mcp::headless_options headless;
  headless.allow_private_addresses = true;  // the suite's authorization server is on this machine
  options.user_agent = mcp::make_headless_user_agent(ex, std::move(headless));
  return std::make_shared<mcp::oauth_client>(ex, std::move(options));
}

// The 2026-07-28 scenarios beyond a plain tools/list.
asio::awaitable<void> run_modern_scenario(mcp::client& client, const std::string& scenario,
                                          const std::vector<mcp::tool_info>& tools) {
  if (scenario == "sep-2322-client-request-state") {
    // Multi-round tools: the client answers their input requests itself.
    for (const auto& tool : tools)
      if (tool.name.starts_with("test_mrtr_")) {
        const auto result = co_await client.call_tool(tool.name);
        std::cout << tool.name << ": " << result.text_content() << "\n";
      }
  } else if (scenario == "http-standard-headers") {
    if (!tools.empty()) co_await client.call_tool(tools.front().name);
    const auto resources = co_await client.list_resources();
    if (!resources.empty()) co_await client.read_resource(resources.front().uri);
    const auto prompts = co_await client.list_prompts();
    if (!prompts.empty()) co_await client.get_prompt(prompts.front().name);
  } else if (scenario == "http-invalid-tool-headers") {
    // Tools with broken x-mcp-header annotations were left out of the list.
    for (const auto& tool : tools)
      if (tool.name == "valid_tool") co_await client.call_tool(tool.name);
  } else if (scenario == "http-custom-headers") {
    for (auto& [name, arguments] : context_calls()) co_await client.call_tool(name, std::move(arguments));
  }
}

// Calls the scenario's tool (the first one listed, for `tools_call`).
asio::awaitable<void> run_scenario(std::string scenario, std::string url) {
  auto ex = co_await asio::this_coro::executor;
  mcp::client_options options;
  // The suite names the era to speak; 2026-07-28 probes with server/discover.
  const bool modern = env("MCP_CONFORMANCE_PROTOCOL_VERSION") == "2026-07-28";
  if (modern) options.versions = {mcp::protocol_version::v2026_07_28};
  mcp::client client(ex, std::move(options));
  // SEP-1034 scenario: the user accepts without filling anything in; the
  // client fills in the schema's defaults.
  client.on_elicitation([](json::object) -> asio::awaitable<json::object> {
    co_return json::object{{"action", "accept"}, {"content", json::object()}};
  });
  // A client with every input capability, as the suite's mocks may ask for
  // any: a canned model answer, and one root.
  client.on_sampling([](json::object) -> asio::awaitable<json::object> {
    co_return json::object{{"role", "assistant"},
                           {"content", {{"type", "text"}, {"text", "A sampled answer."}}},
                           {"model", "conformance-fixture"}};
  });
  client.set_roots({{"file:///conformance/root", std::string("Conformance Root")}});
  mcp::http_client_options http;
  http.authorizer = make_authorizer(ex, scenario);
  auto transport = co_await mcp::connect_http(ex, url, std::move(http));
  co_await client.connect(std::move(transport));
  if (scenario.starts_with("sep-2640-")) {
    co_await run_skills_scenario(client, scenario);
    co_await client.close();
    co_return;
  }
  const auto tools = co_await client.list_tools();
  if (scenario.starts_with("auth/") && !tools.empty()) {
    const auto result = co_await client.call_tool(tools.front().name);
    std::cout << tools.front().name << ": " << result.text_content() << "\n";
  } else if (scenario == "tools_call" && !tools.empty()) {
    json::object arguments{{"a", 2}, {"b", 3}};
    const auto result = co_await client.call_tool(tools.front().name, std::move(arguments));
    std::cout << tools.front().name << ": " << result.text_content() << "\n";
  } else if (scenario == "elicitation-sep1034-client-defaults") {
    const auto result = co_await client.call_tool("test_client_elicitation_defaults");
    std::cout << result.text_content() << "\n";
  } else if (scenario == "sse-retry") {
    const auto result = co_await client.call_tool("test_reconnection");
    std::cout << result.text_content() << "\n";
  } else if (modern) {
    co_await run_modern_scenario(client, scenario, tools);
  }
  co_await client.close();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: conformance-client URL (scenario in MCP_CONFORMANCE_SCENARIO)\n";
    return 2;
  }
  const char* scenario = std::getenv("MCP_CONFORMANCE_SCENARIO");
  asio::io_context io;
  int exit_code = 0;
  asio::co_spawn(io, run_scenario(scenario ? scenario : "initialize", argv[argc - 1]),
                 [&](std::exception_ptr failure) {
                   if (!failure) return;
                   try {
                     std::rethrow_exception(failure);
                   } catch (const std::exception& e) {
                     std::cerr << "conformance-client: " << e.what() << "\n";
                   }
                   exit_code = 1;
                 });
  io.run();
  return exit_code;
}
