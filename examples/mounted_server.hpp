#pragma once
// A server behaviour served through an mcp::http_endpoint mounted in an
// application's own HTTP server (docs/embedding.md), so that the
// conformance suites and the TypeScript SDK's clients check each adapter as
// they check the built-in listener (conformance-server --beast/--httplib/
// --civetweb, everything-server --mount): a Boost.Beast server that hands
// every request to the endpoint (mcp::adapters::async_serve), or a
// cpp-httplib or CivetWeb server it is mounted on (mcp::adapters::mount).
// Each listens on 127.0.0.1, prints the endpoint's URL as the first line of
// stdout, and serves until SIGINT or SIGTERM.

#include <mcp/server/behaviour.hpp>
#include <mcp/server/http_endpoint.hpp>

#include <cstdint>
#include <string_view>

/// Serves `behaviour` with `options` from the server named `kind` (beast,
/// httplib, civetweb; the last two when their adapters are built) on
/// `port` (0: a free one); the exit code (2: no such server here).
int serve_mounted(std::string_view kind, mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                  std::uint16_t port);

// Each server, for serve_mounted.
int serve_mounted_in_beast(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options, std::uint16_t port);
int serve_mounted_in_httplib(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                             std::uint16_t port);
int serve_mounted_in_civetweb(mcp::server_behaviour& behaviour, mcp::http_endpoint_options options,
                              std::uint16_t port);
