#pragma once
// The skills the conformance suite's Skills extension scenarios read
// (sep-2640-skills-enumeration, -directory, -manifest): served by
// conformance-server beside the other fixtures.

#include <mcp/server/server.hpp>

/// Adds three skills: pdf-processing (with references/, scripts/ and
/// templates/regional/ below it), acme/billing/refunds and git-workflow.
void add_skill_conformance_fixtures(mcp::server& server);
