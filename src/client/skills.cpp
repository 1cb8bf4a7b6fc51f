// The client side of the Skills extension (client/skills.hpp): discovery
// and the verified skill-loading path.

#include <mcp/base64.hpp>
#include <mcp/client/skills.hpp>
#include <mcp/protocol/errors.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "../detail/json_members.hpp"
#include "../protocol/wire_readers.hpp"
#include "list_all.hpp"

#include <set>

namespace mcp {

namespace {

using reason = skill_verification_error::reason;

[[noreturn]] void fail(reason why, const std::string& uri, const std::string& message) {
  throw skill_verification_error(why, uri, uri + ": " + message);
}

const json::object* skills_declaration(const client& c) {
  return detail::object_at(c.server().capabilities, {"extensions", skills_extension_id});
}

skill_entry read_entry(const json::value& v) { return detail::read_from_server<skill_entry>(v, "skill entry"); }

// The rules an entry must keep before anything of it is loaded.
void check_entry(const skill_entry& entry, std::string& root) {
  const auto dir = skills::skill_root(entry.uri);
  const auto in_uri = skills::name_in_uri(entry.uri);
  if (!dir || !in_uri) fail(reason::malformed_entry, entry.uri, "the skill's URI does not end in /SKILL.md");
  root = std::string(*dir);
  const auto name = entry.name();
  if (name.empty() || entry.description().empty())
    fail(reason::malformed_entry, entry.uri, "the entry's frontmatter lacks a name or a description");
  if (name != *in_uri)
    fail(reason::malformed_entry, entry.uri, "the frontmatter names the skill \"" + name + "\", its URI \"" +
                                                 std::string(*in_uri) + "\"");
  if (entry.dynamic()) return;
  const auto* files = entry.files();
  if (!files) fail(reason::malformed_entry, entry.uri, "the entry's resources is neither a list nor \"dynamic\"");
  if (files->size() > skills::max_files)
    fail(reason::over_limits, entry.uri, "the skill has " + std::to_string(files->size()) + " files, more than " +
                                             std::to_string(skills::max_files));
  std::uint64_t total = 0;
  std::set<std::string_view> seen;
  bool has_manifest = false;
  for (const auto& f : *files) {
    if (!seen.insert(f.uri).second) fail(reason::malformed_entry, entry.uri, f.uri + " is listed twice");
    if (f.uri != entry.uri && !(f.uri.starts_with(root) && f.uri.size() > root.size() && f.uri[root.size()] == '/'))
      fail(reason::malformed_entry, entry.uri, f.uri + " is outside the skill's directory");
    if (!skills::is_digest(f.digest)) fail(reason::malformed_entry, entry.uri, f.uri + " has no sha256 digest");
    has_manifest = has_manifest || f.uri == entry.uri;
    total += f.size;
  }
  if (!has_manifest) fail(reason::malformed_entry, entry.uri, "the entry's resources do not list SKILL.md");
  if (total > skills::max_total_bytes)
    fail(reason::over_limits, entry.uri, "the skill's files hold " + std::to_string(total) + " bytes, more than " +
                                             std::to_string(skills::max_total_bytes));
}

// The raw bytes a resources/read returned for `uri`.
std::string bytes_of(const std::vector<resource_contents>& contents, const std::string& uri) {
  const resource_contents* found = nullptr;
  for (const auto& c : contents)
    if (c.uri == uri) found = &c;
  if (!found && contents.size() == 1) found = &contents.front();
  if (!found) fail(reason::no_content, uri, "the read returned no content for it");
  if (found->text) return *found->text;
  if (found->blob) {
    auto decoded = base64_decode(*found->blob);
    if (!decoded) fail(reason::no_content, uri, "the read returned a blob that is not base64");
    return std::move(*decoded);
  }
  fail(reason::no_content, uri, "the read returned neither text nor a blob");
}

// Size first (a truncated or padded read is caught before hashing), then the digest.
void verify(const skill_file& expected, std::string_view bytes) {
  if (bytes.size() != expected.size)
    fail(reason::size_mismatch, expected.uri, "read " + std::to_string(bytes.size()) + " bytes, the entry says " +
                                                  std::to_string(expected.size));
  if (skills::digest(bytes) != expected.digest)
    fail(reason::digest_mismatch, expected.uri, "the content does not match the entry's digest");
}

const skill_file* listed(const skill_entry& entry, std::string_view uri) {
  const auto* files = entry.files();
  if (!files) return nullptr;
  for (const auto& f : *files)
    if (f.uri == uri) return &f;
  return nullptr;
}

// `path` against the skill's root; ".." never leaves it.
std::string resolve(const loaded_skill& skill, const std::string& path) {
  if (path.find("://") != std::string::npos) return path;
  std::vector<std::string_view> segments;
  std::string_view rest = path;
  while (!rest.empty()) {
    const auto slash = rest.find('/');
    const auto segment = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (segments.empty()) fail(reason::unlisted_file, skill.root + "/" + path, "the path leads outside the skill");
      segments.pop_back();
      continue;
    }
    segments.push_back(segment);
  }
  if (segments.empty()) fail(reason::unlisted_file, skill.root + "/" + path, "the path names no file");
  std::string uri = skill.root;
  for (const auto s : segments) (uri += '/') += s;
  return uri;
}

}  // namespace

bool offers_skills(const client& c) { return skills_declaration(c) != nullptr; }

bool offers_directory_read(const client& c) {
  const auto* declared = skills_declaration(c);
  return declared && detail::flag_member(*declared, "directoryRead");
}

asio::awaitable<std::vector<skill_entry>> list_skills(client& c) {
  co_return co_await detail::list_all(c, methods::skills_list, "skills", read_entry);
}

asio::awaitable<skill_entry> get_skill(client& c, std::string uri) {
  auto params = detail::method_params(resource_params{std::move(uri)});  // skills/get's params are {uri}
  const auto result = co_await c.request(methods::skills_get, std::move(params));
  co_return detail::read_from_server<get_skill_result>(result, "skills/get result").skill;
}

asio::awaitable<std::vector<resource_info>> read_directory(client& c, std::string uri) {
  auto params = detail::method_params(read_directory_params{std::move(uri)});
  co_return co_await detail::list_all(c, methods::resources_directory_read, "resources", detail::read_resource,
                                      std::move(params));
}

asio::awaitable<loaded_skill> load_skill(client& c, skill_entry entry) {
  loaded_skill skill;
  check_entry(entry, skill.root);
  auto uri = entry.uri;
  const auto contents = co_await c.read_resource(std::move(uri));
  auto bytes = bytes_of(contents, entry.uri);
  if (const auto* expected = listed(entry, entry.uri))
    verify(*expected, bytes);
  else if (bytes.size() > skills::max_total_bytes)
    fail(reason::over_limits, entry.uri, "SKILL.md is larger than " + std::to_string(skills::max_total_bytes) + " bytes");
  json::object frontmatter;
  try {
    frontmatter = skills::parse_frontmatter(bytes);
  } catch (const skills::frontmatter_error& e) {
    fail(reason::frontmatter_mismatch, entry.uri, e.what());
  }
  for (const auto& [key, value] : entry.frontmatter) {
    const auto* own = frontmatter.if_contains(key);
    if (!own || !skills::same_json(*own, value))
      fail(reason::frontmatter_mismatch, entry.uri, "the frontmatter's " + std::string(key) + " differs from the entry's");
  }
  for (const auto& [key, _] : frontmatter)
    if (!entry.frontmatter.contains(key))
      fail(reason::frontmatter_mismatch, entry.uri, "the frontmatter has " + std::string(key) + ", the entry does not");
  skill.instructions = std::move(bytes);
  skill.entry = std::move(entry);
  co_return skill;
}

asio::awaitable<std::string> read_skill_file(client& c, const loaded_skill& skill, std::string path) {
  auto uri = resolve(skill, path);
  const auto* expected = listed(skill.entry, uri);
  if (!skill.entry.dynamic()) {
    if (!expected) fail(reason::unlisted_file, uri, "the skill's entry does not list it (refresh it with skills/get)");
  } else if (!(uri.starts_with(skill.root) && uri.size() > skill.root.size() && uri[skill.root.size()] == '/')) {
    fail(reason::unlisted_file, uri, "the file is outside the skill's directory");
  }
  auto requested = uri;
  const auto contents = co_await c.read_resource(std::move(requested));
  auto bytes = bytes_of(contents, uri);
  if (expected)
    verify(*expected, bytes);
  else if (bytes.size() > skills::max_total_bytes)
    fail(reason::over_limits, uri, "the file is larger than " + std::to_string(skills::max_total_bytes) + " bytes");
  co_return bytes;
}

}  // namespace mcp
