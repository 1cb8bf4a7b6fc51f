// Adding skills to an mcp::server (SEP-2640), the caduceus::skills
// component: reading a skill from disk or memory into a snapshot, with its
// entry (the SKILL.md's YAML frontmatter, a manifest with digests and sizes).
// skills_catalog.cpp serves the snapshots.

#include <mcp/error.hpp>
#include <mcp/log.hpp>
#include <mcp/server/server.hpp>

#include "skills_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <stdexcept>

namespace mcp {

namespace detail {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse(const std::string& what) { throw mcp::invalid_argument("add_skill: " + what); }

// A URI path segment: unreserved, sub-delims, ':' and '@' as they are, the rest percent-encoded.
std::string encode_segment(std::string_view segment) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (const char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    const bool plain = std::isalnum(c) || std::string_view("-._~!$&'()*+,;=:@").find(ch) != std::string_view::npos;
    if (plain) {
      out += ch;
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 0xf];
    }
  }
  return out;
}

// "a/b/c" -> its segments; refused when empty, absolute, or with an empty, "." or ".." segment.
std::vector<std::string> relative_segments(std::string_view path, std::string_view what) {
  std::vector<std::string> segments;
  if (path.empty()) refuse(std::string(what) + " is empty");
  std::size_t start = 0;
  while (true) {
    const auto slash = path.find('/', start);
    const auto segment = path.substr(start, slash == std::string_view::npos ? path.npos : slash - start);
    if (segment.empty() || segment == "." || segment == ".." || segment.find('\\') != std::string_view::npos ||
        segment.find('\0') != std::string_view::npos)
      refuse(std::string(what) + " \"" + std::string(path) + "\" is not a relative path of plain segments");
    segments.emplace_back(segment);
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return segments;
}

std::string mime_type_of(std::string_view path, std::string_view bytes) {
  static const std::map<std::string, std::string, std::less<>> by_extension{
      {".md", "text/markdown"},      {".markdown", "text/markdown"}, {".txt", "text/plain"},
      {".py", "text/x-python"},      {".sh", "text/x-shellscript"},   {".js", "text/javascript"},
      {".ts", "text/x-typescript"},  {".json", "application/json"},   {".yaml", "application/yaml"},
      {".yml", "application/yaml"},  {".toml", "application/toml"},   {".html", "text/html"},
      {".css", "text/css"},          {".csv", "text/csv"},            {".xml", "application/xml"},
      {".pdf", "application/pdf"},   {".png", "image/png"},           {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},       {".gif", "image/gif"},           {".svg", "image/svg+xml"},
      {".webp", "image/webp"}};
  const auto slash = path.rfind('/');
  const auto name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (const auto dot = name.rfind('.'); dot != std::string_view::npos && dot > 0) {
    std::string ext(name.substr(dot));
    std::ranges::transform(ext, ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (const auto it = by_extension.find(ext); it != by_extension.end()) return it->second;
  }
  return skills::is_utf8(bytes) ? "text/plain" : "application/octet-stream";
}

// The snapshot of a skill from its files (paths checked, SKILL.md among them).
served_skill make_skill(std::vector<skill_source_file> files, const skill_options& options) {
  if (files.size() > options.max_files)
    refuse("the skill has " + std::to_string(files.size()) + " files, more than the " +
           std::to_string(options.max_files) + " allowed");
  std::uint64_t total = 0;
  for (const auto& f : files) total += f.content.size();
  if (total > options.max_total_bytes)
    refuse("the skill's files hold " + std::to_string(total) + " bytes, more than the " +
           std::to_string(options.max_total_bytes) + " allowed");
  if (options.scheme.empty() ||
      !std::ranges::all_of(options.scheme, [](unsigned char c) { return std::isalnum(c) || c == '+' || c == '-' || c == '.'; }) ||
      !std::isalpha(static_cast<unsigned char>(options.scheme.front())))
    refuse("\"" + options.scheme + "\" is not a URI scheme");

  const auto manifest = std::ranges::find(files, std::string_view("SKILL.md"), &skill_source_file::path);
  if (manifest == files.end()) refuse("the skill has no SKILL.md at its root");
  json::object frontmatter;
  try {
    frontmatter = skills::parse_frontmatter(manifest->content);
  } catch (const skills::frontmatter_error& e) {
    refuse(std::string("SKILL.md: ") + e.what());
  }
  const auto* name = frontmatter.if_contains("name");
  const auto* description = frontmatter.if_contains("description");
  if (!name || !name->is_string() || !skills::is_valid_name(name->get_string()))
    refuse("SKILL.md: the frontmatter needs a name of 1-64 lowercase letters, digits and single hyphens");
  if (!description || !description->is_string() || description->get_string().empty())
    refuse("SKILL.md: the frontmatter needs a description");

  served_skill skill;
  skill.root = options.scheme + "://";
  if (!options.prefix.empty())
    for (const auto& segment : relative_segments(options.prefix, "the prefix")) skill.root += encode_segment(segment) + "/";
  skill.root += std::string(name->get_string());
  skill.listed = options.listed;
  skill.cache = options.cache;

  // Files sorted by path, each once; every directory on their way.
  std::ranges::sort(files, {}, &skill_source_file::path);
  std::set<std::string> seen_directories;
  std::vector<skill_file> manifest_entries;
  for (auto& f : files) {
    const auto segments = relative_segments(f.path, "the file path");
    if (!skill.files.empty() && skill.files.back().path == f.path) refuse("the file " + f.path + " is given twice");
    std::string dir_uri = skill.root;
    for (std::size_t i = 0; i + 1 < segments.size(); ++i) {
      const auto child = dir_uri + "/" + encode_segment(segments[i]);
      if (seen_directories.insert(child).second)
        skill.directories[dir_uri].push_back(
            resource_info{.uri = child, .name = segments[i], .mime_type = std::string(directory_mime_type)});
      dir_uri = child;
    }
    served_skill_file file;
    file.path = f.path;
    file.uri = dir_uri + "/" + encode_segment(segments.back());
    file.mime_type = f.mime_type.value_or(mime_type_of(f.path, f.content));
    manifest_entries.push_back(skill_file{file.uri, skills::digest(f.content), f.content.size()});
    skill.directories[dir_uri].push_back(resource_info{.uri = file.uri,
                                                       .name = segments.back(),
                                                       .mime_type = file.mime_type,
                                                       .size = static_cast<std::int64_t>(f.content.size())});
    file.bytes = std::make_shared<const std::string>(std::move(f.content));
    skill.file_by_uri.emplace(file.uri, skill.files.size());
    skill.files.push_back(std::move(file));
  }
  skill.directories.try_emplace(skill.root);
  for (auto& [_, children] : skill.directories) std::ranges::sort(children, {}, &resource_info::name);
  // SKILL.md first in the manifest, the others in their order: the entry a
  // host verifies before anything else. (Not std::stable_partition, whose
  // libstdc++ 12 implementation clang 22 warns of: get_temporary_buffer is deprecated.)
  const auto manifest_uri = skill.root + "/SKILL.md";
  const auto manifest_entry = std::find_if(manifest_entries.begin(), manifest_entries.end(),
                                           [&](const skill_file& f) { return f.uri == manifest_uri; });
  if (manifest_entry != manifest_entries.end())
    std::rotate(manifest_entries.begin(), manifest_entry, std::next(manifest_entry));

  skill.entry.uri = skill.root + "/SKILL.md";
  skill.entry.frontmatter = std::move(frontmatter);
  skill.entry.resources = std::move(manifest_entries);
  skill.entry_json = to_json_value(skill.entry);
  return skill;
}

// Reads `path` (a regular file) whole, refusing more than `budget` bytes.
std::string read_file(const fs::path& path, std::uint64_t budget) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse("cannot open " + path.string());
  std::string bytes;
  char buffer[16 * 1024];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    bytes.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > budget) refuse("the skill's files hold more than the " + std::to_string(budget) + " bytes allowed");
  }
  if (in.bad()) refuse("cannot read " + path.string());
  return bytes;
}

bool hidden(const fs::path& p) { return p.filename().string().starts_with('.'); }

bool within(const fs::path& inner, const fs::path& root) {
  auto [r, i] = std::mismatch(root.begin(), root.end(), inner.begin(), inner.end());
  return r == root.end();
}

// Every regular file below `root` (canonical), as skill files. Links are
// followed only to regular files inside the root; directory links not at all.
std::vector<skill_source_file> read_skill_directory(const fs::path& root, const skill_options& options) {
  std::vector<skill_source_file> files;
  std::uint64_t total = 0;
  constexpr std::size_t max_depth = 16;
  std::vector<std::pair<fs::path, std::size_t>> pending{{root, 0}};
  while (!pending.empty()) {
    auto [dir, depth] = std::move(pending.back());
    pending.pop_back();
    for (const auto& item : fs::directory_iterator(dir)) {
      const auto& path = item.path();
      if (!options.include_hidden && hidden(path)) continue;
      auto status = item.symlink_status();
      if (fs::is_symlink(status)) {
        std::error_code ec;
        const auto target = fs::canonical(path, ec);
        if (ec || !within(target, root) || !fs::is_regular_file(target)) {
          sdk_log(log_category::server, log_level::warn,
                  "add_skill: a link that leads outside the skill or not to a file is left out",
                  {{"path", path.string()}});
          continue;
        }
        status = fs::status(target);
      }
      if (fs::is_directory(status)) {
        if (depth + 1 > max_depth) refuse(path.string() + " is nested deeper than " + std::to_string(max_depth) + " levels");
        pending.emplace_back(path, depth + 1);
        continue;
      }
      if (!fs::is_regular_file(status)) continue;  // fifos, sockets, devices
      if (files.size() >= options.max_files)
        refuse(root.string() + " has more than the " + std::to_string(options.max_files) + " files allowed");
      const auto budget = options.max_total_bytes - total;
      auto bytes = read_file(path, budget);
      total += bytes.size();
      files.push_back(skill_source_file{path.lexically_relative(root).generic_string(), std::move(bytes)});
    }
  }
  return files;
}

}  // namespace

}  // namespace detail

skill_entry server::add_skill(const std::filesystem::path& directory) { return add_skill(directory, skill_options{}); }

skill_entry server::add_skill(const std::filesystem::path& directory, const skill_options& options) {
  const auto root = std::filesystem::canonical(directory);
  if (!std::filesystem::is_directory(root)) detail::refuse(directory.string() + " is not a directory");
  if (!std::filesystem::is_regular_file(root / "SKILL.md")) detail::refuse(directory.string() + " has no SKILL.md");
  auto files = detail::read_skill_directory(root, options);
  return add_skill(std::move(files), options);
}

skill_entry server::add_skill(std::vector<skill_source_file> files, const skill_options& options) {
  auto skill = detail::make_skill(std::move(files), options);
  auto entry = skill.entry;
  // SKILL.md is an ordinary resource too (resources/list, and the
  // `resources` capability the extension requires); its reads, and those of
  // the other files, are answered from the snapshot (serve_skills_at_once).
  const auto& manifest = *skill.file(entry.uri);
  resource_info info{.uri = entry.uri,
                     .name = entry.name(),
                     .description = entry.description(),
                     .mime_type = manifest.mime_type,
                     .size = static_cast<std::int64_t>(manifest.bytes->size()),
                     .cache = options.cache};
  resource_handler read = detail::skill_file_reader(manifest);
  skills_->skills.put(entry.uri, std::move(skill));
  skills_->declared = true;
  add_resource(std::move(info), std::move(read));
  return entry;
}

std::vector<skill_entry> server::add_skills_directory(const std::filesystem::path& root) {
  return add_skills_directory(root, skill_options{});
}

std::vector<skill_entry> server::add_skills_directory(const std::filesystem::path& root, const skill_options& options) {
  namespace fs = std::filesystem;
  const auto base = fs::canonical(root);
  std::vector<skill_entry> added;
  constexpr std::size_t max_depth = 8;
  // Breadth first, in name order: a skill's nested skills come after it.
  std::vector<std::pair<fs::path, std::size_t>> level{{base, 0}};
  while (!level.empty()) {
    std::vector<std::pair<fs::path, std::size_t>> next;
    for (const auto& [dir, depth] : level) {
      if (dir != base && fs::is_regular_file(fs::symlink_status(dir / "SKILL.md"))) {
        auto local = options;
        const auto between = dir.lexically_relative(base).parent_path().generic_string();
        if (!between.empty()) local.prefix = local.prefix.empty() ? between : local.prefix + "/" + between;
        added.push_back(add_skill(dir, local));
      }
      if (depth == max_depth) continue;
      std::vector<fs::path> children;
      for (const auto& item : fs::directory_iterator(dir))
        if (item.is_directory() && !item.is_symlink() && (options.include_hidden || !detail::hidden(item.path())))
          children.push_back(item.path());
      std::ranges::sort(children);
      for (auto& child : children) next.emplace_back(std::move(child), depth + 1);
    }
    level = std::move(next);
  }
  return added;
}

}  // namespace mcp
