#pragma once
// Tests of legacy-session behaviour (a scripted server that expects
// `initialize` first, session ids, state kept per session) pin the client
// to the legacy era: by default it probes with 2026-07-28's server/discover.

#include <mcp/client/client.hpp>

namespace mcp::test {

/// `options` without the modern versions (all legacy ones when none is left).
inline client_options legacy_only(client_options options = {}) {
  std::erase_if(options.versions, [](protocol_version v) { return dialect_of(v).era == protocol_era::modern; });
  if (options.versions.empty()) options.versions.assign(legacy_versions().begin(), legacy_versions().end());
  return options;
}

}  // namespace mcp::test
