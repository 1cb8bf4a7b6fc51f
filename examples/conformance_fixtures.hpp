#pragma once
// The fixtures of the official MCP conformance suite
// (@modelcontextprotocol/conformance, server scenarios): the tools, resources,
// resource template and prompts its scenarios call by name, with the texts,
// payloads and schemas they check. A mirror of the suite's own reference
// server, `examples/servers/typescript/everything-server.ts`.
//
// Shared by every transport of the conformance server and by its unit test.

#include <mcp/server/server.hpp>

/// Registers every conformance fixture on `server`. Its capabilities follow
/// from what is registered: tools, resources {subscribe, listChanged},
/// prompts, logging and completions.
void add_conformance_fixtures(mcp::server& server);

/// The fixtures only the 2026-07-28 scenarios call (conformance 0.2.0-alpha):
/// multi-round requests and the server-stateless diagnostics. Called by
/// add_conformance_fixtures.
void add_modern_conformance_fixtures(mcp::server& server);

/// The fixtures of the tasks scenarios (the tasks extension of 2026-07-28,
/// and the tasks of 2025-11-25): tools that run as tasks. Called by
/// add_conformance_fixtures.
void add_task_conformance_fixtures(mcp::server& server);
