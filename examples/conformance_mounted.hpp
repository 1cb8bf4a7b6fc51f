#pragma once
// conformance-server's fixtures served through an mcp::http_endpoint mounted
// in an application's own HTTP server (docs/embedding.md), so that the
// conformance suites check each adapter as they check the built-in
// listener: a Boost.Beast server that hands every request to the endpoint
// (mcp::adapters::async_serve), or a cpp-httplib server it is mounted on
// (mcp::adapters::mount). Both listen on 127.0.0.1, print the endpoint's URL
// as the first line of stdout, and serve until SIGINT or SIGTERM.

#include <mcp/server/behaviour.hpp>

#include <cstdint>

/// Serves `behaviour` from a Beast server of its own; the exit code.
int serve_mounted_in_beast(mcp::server_behaviour& behaviour, std::uint16_t port);

/// Serves `behaviour` from a cpp-httplib server; the exit code. (Built
/// with the caduceus::httplib adapter only.)
int serve_mounted_in_httplib(mcp::server_behaviour& behaviour, std::uint16_t port);
