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

#include <mcp/server/serve.hpp>

#include <iostream>
#include <string_view>

int main(int argc, char** argv) {
  if (argc != 2 || std::string_view(argv[1]) != "--stdio") {
    std::cerr << "usage: conformance-server --stdio\n";
    return 2;
  }
  mcp::server server({"caduceus-conformance-server", "0.1.0"});
  add_conformance_fixtures(server);
  return mcp::run_stdio_server(server);
}
