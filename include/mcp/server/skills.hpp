#pragma once
// Serving skills (SEP-2640, the `io.modelcontextprotocol/skills` extension)
// from an mcp::server: the options of server::add_skill and
// server::add_skills_directory.
//
//   mcp::server srv{{"docs", "1.0"}};
//   srv.add_skill("skills/pdf-processing");      // skill://pdf-processing/SKILL.md
//   srv.add_skills_directory("skills");          // every skill below skills/
//
// A skill is read once, when it is added: its files are kept in memory, so
// what a client reads is what the digests of its entry promise until the
// skill is added again (which replaces it) or removed. The server then
// declares the extension (from 2026-07-28, where capabilities carry
// `extensions`) with `directoryRead`, and answers `skills/list` (paginated by
// server_options::page_size), `skills/get`, `resources/directory/read` and
// `resources/read` of every file of every skill. Each SKILL.md is also an
// ordinary resource of `resources/list` (named and described by its
// frontmatter); the other files are read by URI, found through the entry's
// manifest or a directory read. See docs/server.md, "Skills".

#include <mcp/export.hpp>
#include <mcp/protocol/skills.hpp>
#include <mcp/protocol/types.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {

/// A file of a skill given in memory (server::add_skill with files).
struct MCP_API skill_source_file {
  std::string path;     ///< relative to the skill's root, `/`-separated: "SKILL.md", "references/FORMS.md"
  std::string content;  ///< raw bytes
  std::optional<std::string> mime_type = {};  ///< default: from the extension (text/markdown for .md ...)
};

/// How server::add_skill and server::add_skills_directory serve a skill.
struct MCP_API skill_options {
  /// The organizational prefix of the skill path: "acme/billing" serves
  /// `skill://acme/billing/<name>/SKILL.md`; empty: `skill://<name>/SKILL.md`.
  /// Segments are those of a URI path (letters, digits, -._~ and the like).
  std::string prefix = {};
  /// The URI scheme. `skill` unless the server's domain has its own.
  std::string scheme = "skill";
  /// A skill over either limit is refused (SEP-2640 "Limits": hosts need
  /// not accept more than 512 files or 16 MiB in all).
  std::size_t max_files = skills::max_files;
  std::uint64_t max_total_bytes = skills::max_total_bytes;  ///< All its files' bytes together (see max_files).
  /// Files and directories whose names begin with '.' (.git, .DS_Store) are
  /// left out unless this is set.
  bool include_hidden = false;
  /// In `skills/list`; a skill left out is still served by `skills/get`
  /// and `resources/read` to a client that knows its URI.
  bool listed = true;
  /// The caching hint (2026-07-28) of its reads and entries; unset: the server's.
  std::optional<cache_hint> cache = {};
};

namespace detail {
/// The skills of one server (src/server/skills_catalog.hpp).
class skill_catalog;
MCP_API std::shared_ptr<skill_catalog> make_skill_catalog();
}  // namespace detail

}  // namespace mcp
