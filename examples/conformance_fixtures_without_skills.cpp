#include "conformance_fixtures_skills.hpp"

// This build of Caduceus has no skills part (caduceus::skills needs
// yaml-cpp): the conformance server serves no skills.
void add_skill_conformance_fixtures(mcp::server&) {}
