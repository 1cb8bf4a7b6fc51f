// conformance-server: the fixture server of the official MCP conformance
// suite (@modelcontextprotocol/conformance). It serves the tools, resources,
// resource template and prompts the suite's server scenarios call by name
// (conformance_fixtures.cpp), on the high-level mcp::server.
//
//   build/bin/conformance-server --stdio    (speaks MCP on stdin/stdout)
//
// The suite itself connects over Streamable HTTP only; that transport comes
// later. Over stdio the fixtures can be driven by any MCP client.

#include "conformance_fixtures.hpp"

#include <mcp/server/http_server.hpp>
#include <mcp/server/serve.hpp>

#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
  const std::string_view mode = argc > 1 ? argv[1] : "";
  mcp::server server({"caduceus-conformance-server", "0.1.0"});
  add_conformance_fixtures(server);
  if (argc == 2 && mode == "--stdio") return mcp::run_stdio_server(server);
  if (argc == 3 && mode == "--port") {
    mcp::http_server_options options;  // 127.0.0.1, endpoint /mcp
    options.port = static_cast<std::uint16_t>(std::stoul(argv[2]));
    return mcp::run_http_server(server, options);
  }
  std::cerr << "usage: conformance-server (--stdio | --port PORT)\n";
  return 2;
}
