#pragma once
// The skills an mcp::server serves (skills_catalog.cpp; server/skills.cpp
// adds them), and the two hooks server.cpp calls: the capability and the
// requests served at once.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/protocol/skills.hpp>
#include <mcp/protocol/types.hpp>
#include <mcp/server/server.hpp>

#include "registry.hpp"

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp {
class request_context;
}

namespace mcp::detail {

struct served_skill_file {
  std::string path;  // relative to the skill's root, as written ("references/FORMS.md")
  std::string uri;
  std::string mime_type;
  std::shared_ptr<const std::string> bytes;
};

struct served_skill {
  skill_entry entry;
  json::value entry_json;  // as skills/list and skills/get send it
  std::string root;        // skill://<skill-path>, no trailing slash
  std::vector<served_skill_file> files;
  std::map<std::string, std::size_t, std::less<>> file_by_uri;
  // Each directory's URI (the root included) -> its direct children, sorted by name.
  std::map<std::string, std::vector<resource_info>, std::less<>> directories;
  bool listed = true;
  std::optional<cache_hint> cache;

  const std::string& key() const { return entry.uri; }
  const served_skill_file* file(std::string_view uri) const {
    const auto it = file_by_uri.find(uri);
    return it == file_by_uri.end() ? nullptr : &files[it->second];
  }
};

class skill_catalog {
 public:
  registry<served_skill> skills;
  std::atomic<bool> declared{false};  // a skill was added once: the extension stays declared
};

/// Adds `capabilities.extensions["io.modelcontextprotocol/skills"]` once a
/// skill was added (shaping leaves `extensions` out before 2026-07-28).
void declare_skills(const skill_catalog& catalog, json::object& capabilities);

/// skills/list, skills/get, resources/directory/read, and resources/read of
/// a skill's file; nullopt for anything else. `cache`: the server's hint on
/// a 2026-07-28 request, null before it.
std::optional<json::object> serve_skills_at_once(const skill_catalog& catalog, const request& req,
                                                 request_context& ctx, std::size_t page_size,
                                                 const cache_hint* cache);

/// A resource handler reading `file` from its snapshot (SKILL.md is an
/// ordinary resource too).
// (MCP_API: caduceus::skills calls it, a library of its own in a shared build.)
MCP_API resource_handler skill_file_reader(const served_skill_file& file);

}  // namespace mcp::detail
