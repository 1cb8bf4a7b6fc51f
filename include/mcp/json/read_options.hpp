#pragma once

#include <mcp/export.hpp>
// How from_json treats input that does not match the type exactly.

namespace mcp {

/// How from_json treats input that does not match the type exactly; the
/// default is strict.
struct MCP_API read_options {
  /// A member that is not required and whose value has the wrong JSON kind
  /// (`"title": false` for a std::optional<std::string>) keeps its default
  /// instead of failing the read. For what a peer sends, where one stray
  /// optional field should not cost the whole message. A value that is
  /// wrong deeper down (an item of a list, a required member of a nested
  /// struct) still fails.
  bool skip_mistyped_optionals = false;
};

}  // namespace mcp
