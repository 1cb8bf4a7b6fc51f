// conformance-server: the fixture server of the official MCP conformance
// suite (@modelcontextprotocol/conformance). It serves the tools, resources,
// resource template and prompts the suite's server scenarios call by name
// (conformance_fixtures*.cpp), and the skills of the Skills extension's
// scenarios, on the high-level mcp::server, in both eras:
// legacy sessions and 2026-07-28 requests on the same endpoint.
//
//   build/bin/conformance-server --port PORT     (Streamable HTTP on 127.0.0.1, /mcp)
//   build/bin/conformance-server --beast PORT    (the same, mounted in a Beast server of its own)
//   build/bin/conformance-server --httplib PORT  (the same, mounted in cpp-httplib)
//   build/bin/conformance-server --civetweb PORT (the same, mounted in CivetWeb)
//   build/bin/conformance-server --stdio         (MCP on stdin/stdout)

#include "conformance_fixtures.hpp"
#include "conformance_fixtures_skills.hpp"
#include "mounted_server.hpp"

#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>
#include <mcp/version.hpp>

#include <cstdlib>
#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  mcp::server server({"caduceus-conformance-server", mcp::version_string});
  add_conformance_fixtures(server);
  add_skill_conformance_fixtures(server);  // the Skills extension (SEP-2640)
  if (argc == 2 && mode == "--stdio") return mcp::run_stdio_server(server);
  const auto port = argc == 3 ? static_cast<std::uint16_t>(std::stoul(argv[2])) : std::uint16_t{0};
  if (argc == 3 && (mode == "--beast" || mode == "--httplib" || mode == "--civetweb"))
    return serve_mounted(mode.substr(2), server, {}, port);
  if (argc == 3 && mode == "--port") {
    mcp::http_server_options options;  // 127.0.0.1, endpoint /mcp
    options.port = port;
    // The first line of stdout is the endpoint: a caller that asked for port 0 reads it.
    const auto result = mcp::run_http_server(server, options, [](std::string_view url) { std::cout << url << std::endl; });
    if (result.handlers_left_running) std::_Exit(result.exit_code);  // (they still use `server`)
    return result.exit_code;
  }
  std::cerr << "usage: conformance-server (--stdio | --port PORT | --beast PORT | --httplib PORT | --civetweb PORT)\n";
  return 2;
}
