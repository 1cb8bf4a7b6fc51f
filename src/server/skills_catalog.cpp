// The skills an mcp::server serves (SEP-2640), answered at once from their
// snapshots: skills/list, skills/get, resources/directory/read and
// resources/read of a skill's files. Adding skills (reading SKILL.md's YAML)
// is the caduceus::skills component's (server/skills.cpp); with none added
// the extension is not declared and its methods are unknown.

#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>
#include <mcp/server/context.hpp>
#include <mcp/server/server.hpp>

#include "../protocol/invalid_params.hpp"
#include "../protocol/read_params.hpp"
#include "../protocol/shaping.hpp"
#include "list_pages.hpp"
#include "skills_catalog.hpp"

#include <algorithm>

namespace mcp {

namespace detail {

namespace {

json::object list_skills(const skill_catalog& catalog, const json::object& params, std::size_t page_size,
                         const cache_hint* cache) {
  const auto asked = read_params<paginated_params>(params);
  const auto all = catalog.skills.snapshot();
  std::vector<const served_skill*> listed;
  for (const auto& s : *all)
    if (s->listed) listed.push_back(s.get());
  const auto p = paginate(listed.size(), asked.cursor, page_size);
  json::array out;
  std::optional<cache_hint> hint;
  for (auto i = p.begin; i < p.end; ++i) {
    out.push_back(listed[i]->entry_json);
    if (cache) {
      // A page is as fresh as its stalest entry, and shared only if all may be.
      const auto own = listed[i]->cache.value_or(*cache);
      if (!hint) hint = own;
      hint->ttl = std::min(hint->ttl, own.ttl);
      hint->shared = hint->shared && own.shared;
    }
  }
  json::object result{{"skills", std::move(out)}};
  if (p.next_cursor) result["nextCursor"] = *p.next_cursor;
  if (cache) put_cache_hint(result, hint.value_or(*cache));
  return result;
}

std::shared_ptr<const served_skill> find_skill(const skill_catalog& catalog, std::string_view uri) {
  return catalog.skills.find(uri);
}

// The skill whose root holds `uri` (a file or a directory of it).
template <class Found>
std::shared_ptr<const served_skill> skill_holding(const skill_catalog& catalog, std::string_view uri, Found found) {
  for (const auto& s : *catalog.skills.snapshot())
    if ((uri == s->root || (uri.starts_with(s->root) && uri[s->root.size()] == '/')) && found(*s)) return s;
  return nullptr;
}

json::object read_directory(const skill_catalog& catalog, const json::object& params, std::size_t page_size,
                            const cache_hint* cache, const dialect& d) {
  const auto asked = read_params<read_directory_params>(params);
  const auto& uri = asked.uri;
  const auto skill = skill_holding(catalog, uri, [&](const served_skill& s) { return s.directories.contains(uri); });
  if (!skill) invalid_params("not a directory: " + uri, json::object{{"uri", uri}});
  const auto& children = skill->directories.find(uri)->second;
  const auto p = paginate(children.size(), asked.cursor, page_size);
  json::array out;
  for (auto i = p.begin; i < p.end; ++i) out.push_back(shape_listing(to_json_value(children[i]).as_object(), d));
  json::object result{{"resources", std::move(out)}};
  if (p.next_cursor) result["nextCursor"] = *p.next_cursor;
  if (cache) put_cache_hint(result, skill->cache.value_or(*cache));
  return result;
}

resource_contents contents_of(const std::string& uri, const std::string& bytes, const std::string& mime_type) {
  return skills::is_utf8(bytes) ? resource_contents::from_text(uri, bytes, mime_type)
                                : resource_contents::from_bytes(uri, bytes, mime_type);
}

// A coroutine of its own (no captures to outlive): the snapshot, as a resource handler returns it.
asio::awaitable<std::vector<resource_contents>> serve_contents(resource_contents contents) {
  std::vector<resource_contents> all;
  all.push_back(std::move(contents));
  co_return all;
}

}  // namespace

std::shared_ptr<skill_catalog> make_skill_catalog() { return std::make_shared<skill_catalog>(); }

void declare_skills(const skill_catalog& catalog, json::object& capabilities) {
  if (!catalog.declared) return;
  auto& extensions = capabilities["extensions"];
  if (!extensions.is_object()) extensions = json::object{};
  extensions.get_object()[skills_extension_id] = json::object{{"directoryRead", true}};
}

std::optional<json::object> serve_skills_at_once(const skill_catalog& catalog, const request& req,
                                                 request_context& ctx, std::size_t page_size,
                                                 const cache_hint* cache) {
  if (!catalog.declared) return std::nullopt;  // no skill was ever added: the methods are unknown
  const auto& m = req.method;
  if (m == methods::skills_list) return list_skills(catalog, req.params, page_size, cache);
  if (m == methods::skills_get) {
    const auto uri = read_params_of<method::resources_read>(req.params).uri;  // skills/get's params are {uri} too
    const auto skill = find_skill(catalog, uri);
    if (!skill) invalid_params("no skill is served at " + uri, json::object{{"uri", uri}});
    json::object result{{"skill", skill->entry_json}};
    if (cache) put_cache_hint(result, skill->cache.value_or(*cache));
    return result;
  }
  if (m == methods::resources_directory_read)
    return read_directory(catalog, req.params, page_size, cache, dialect_of(ctx.version()));
  if (m == methods::resources_read) {
    const auto wanted = read_params_of<method::resources_read>(req.params).uri;
    const auto skill = skill_holding(catalog, wanted, [&](const served_skill& s) { return s.file(wanted) != nullptr; });
    if (!skill) return std::nullopt;  // not a skill's file: the server's resources answer
    const auto& file = *skill->file(wanted);
    json::object result{{"contents", json::array{contents_of(file.uri, *file.bytes, file.mime_type).to_json()}}};
    if (cache) put_cache_hint(result, skill->cache.value_or(*cache));
    return result;
  }
  return std::nullopt;
}

resource_handler skill_file_reader(const served_skill_file& file) {
  return [bytes = file.bytes, mime = file.mime_type](const std::string& uri, request_context&) {
    return serve_contents(contents_of(uri, *bytes, mime));
  };
}

}  // namespace detail

bool server::remove_skill(std::string_view uri) {
  if (!skills_->skills.remove(uri)) return false;
  remove_resource(uri);
  return true;
}

}  // namespace mcp
