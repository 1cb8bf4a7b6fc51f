#pragma once
// The Skills extension (SEP-2640, `io.modelcontextprotocol/skills`): the data
// both sides exchange (a skill entry of `skills/list` and `skills/get`, with
// its file manifest) and their JSON form, and the rules both sides apply to a
// skill's files: the `sha256:{hex}` digest, the YAML frontmatter of a
// SKILL.md read as JSON, the naming rule of the Agent Skills specification
// and how a skill's URI names its directory. No I/O here.
//
// A skill is a directory of files, minimally a SKILL.md whose YAML
// frontmatter names it (`name`, `description`). Each file is a resource,
// `skill://<skill-path>/<file-path>`, whose last <skill-path> segment is the
// skill's name; the SKILL.md URI identifies the skill.

#include <mcp/export.hpp>
#include <mcp/error.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/json/fields.hpp>

#include <boost/describe/class.hpp>
#include <boost/json/object.hpp>
#include <boost/system/errc.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <variant>
#include <vector>

namespace mcp {

/// The extension's identifier, the key under `capabilities.extensions`.
inline constexpr std::string_view skills_extension_id = "io.modelcontextprotocol/skills";
/// The MIME type of a directory resource (`resources/directory/read`).
inline constexpr std::string_view directory_mime_type = "inode/directory";

/// One file of a skill's manifest: what a host verifies a read against.
struct MCP_API skill_file {
  std::string uri;  ///< its resource URI, `skill://<skill-path>/<file-path>`
  std::string digest;  ///< "sha256:" and 64 lowercase hex digits of the raw bytes
  std::uint64_t size = 0;  ///< length of the raw bytes
};
/// \cond
BOOST_DESCRIBE_STRUCT(skill_file, (), (uri, digest, size))
inline auto mcp_fields(type_t<skill_file>) { return std::tuple{field(&skill_file::size).required()}; }
/// \endcond

/// An entry of `skills/list`, or the `skill` of `skills/get`.
struct MCP_API skill_entry {
  std::string uri;           ///< the skill's SKILL.md
  json::object frontmatter;  ///< the SKILL.md's YAML frontmatter, verbatim, as JSON
  /// Every file of the skill (SKILL.md included), or the string "dynamic"
  /// for a skill generated on demand, which has no stable digests.
  std::variant<std::vector<skill_file>, std::string> resources;

  /// The manifest; null for a dynamic skill (or a malformed `resources`).
  const std::vector<skill_file>* files() const noexcept { return std::get_if<std::vector<skill_file>>(&resources); }
  /// Whether `resources` is the string "dynamic": a skill generated on
  /// demand, without a manifest.
  bool dynamic() const noexcept {
    const auto* marker = std::get_if<std::string>(&resources);
    return marker && *marker == "dynamic";
  }
  /// `frontmatter.name` ("" when absent or not a string).
  std::string name() const;
  /// `frontmatter.description` ("" when absent or not a string).
  std::string description() const;
};
/// \cond
BOOST_DESCRIBE_STRUCT(skill_entry, (), (uri, frontmatter, resources))
inline auto mcp_fields(type_t<skill_entry>) { return std::tuple{field(&skill_entry::resources).required()}; }
/// \endcond

/// A page of `skills/list`.
struct MCP_API list_skills_result {
  std::vector<skill_entry> skills;         ///< the entries on this page
  std::optional<std::string> next_cursor;  ///< set: there may be more, asked for with it
};
/// \cond
BOOST_DESCRIBE_STRUCT(list_skills_result, (), (skills, next_cursor))
inline auto mcp_fields(type_t<list_skills_result>) {
  return std::tuple{field(&list_skills_result::next_cursor).key("nextCursor")};
}
/// \endcond

/// The result of `skills/get`.
struct MCP_API get_skill_result {
  skill_entry skill;  ///< the entry of the skill asked for
};
/// \cond
BOOST_DESCRIBE_STRUCT(get_skill_result, (), (skill))
/// \endcond

/// The params of `resources/directory/read`; its result has the shape of a
/// `resources/list` page (list_resources_result).
struct MCP_API read_directory_params {
  std::string uri;                         ///< the directory resource
  std::optional<std::string> cursor = {};  ///< the `nextCursor` of the page before; none: the first
};
/// \cond
BOOST_DESCRIBE_STRUCT(read_directory_params, (), (uri, cursor))
/// \endcond

namespace skills {

/// Limits every host accepts, per skill (SEP-2640 "Limits"): servers should
/// not serve more, hosts may refuse more. This one: the most files.
inline constexpr std::size_t max_files = 512;
/// The other limit of SEP-2640: the most raw bytes of all a skill's files
/// together (16 MiB).
inline constexpr std::uint64_t max_total_bytes = 16 * 1024 * 1024;
/// The most bytes of YAML frontmatter parse_frontmatter reads (64 KiB).
inline constexpr std::size_t max_frontmatter_bytes = 64 * 1024;
/// The deepest nesting of YAML frontmatter parse_frontmatter reads.
inline constexpr std::size_t max_frontmatter_depth = 32;

/// A SKILL.md whose frontmatter cannot be read (missing, not YAML, not a
/// mapping, or something JSON cannot hold). Code: boost::system::errc::bad_message.
class MCP_API frontmatter_error : public error {
 public:
  /// `message` is what() as it is.
  explicit frontmatter_error(std::string message)
      : error(make_error_code(boost::system::errc::bad_message), std::move(message), whole_message{}) {}
};

/// "sha256:" followed by the lowercase hex SHA-256 of `bytes`.
MCP_API std::string digest(std::string_view bytes);

/// Whether `digest` has the form "sha256:" + 64 lowercase hex digits.
MCP_API bool is_digest(std::string_view digest) noexcept;

/// The YAML text between the opening `---` line and the closing one (a BOM
/// before it allowed); nullopt when the file does not begin with one.
MCP_API std::optional<std::string_view> frontmatter_text(std::string_view skill_md) noexcept;

/// The frontmatter of a SKILL.md as JSON, typed as a YAML 1.2 core-schema
/// parser types it (plain `true`, `3`, `1.5`, `null` are a boolean, numbers
/// and null; quoted scalars and block scalars are strings; anything else
/// plain is a string): what `skills/list` sends and what a host compares.
/// Duplicate keys, complex keys, unknown tags, infinities and NaN, more than
/// max_frontmatter_bytes and nesting deeper than max_frontmatter_depth are
/// refused. In caduceus::skills (yaml-cpp), as is all that calls it.
/// @throws frontmatter_error
MCP_API json::object parse_frontmatter(std::string_view skill_md);

/// The Agent Skills naming rule: 1-64 characters, lowercase letters, digits
/// and hyphens, no hyphen first, last, or twice in a row.
MCP_API bool is_valid_name(std::string_view name) noexcept;

/// `skill://a/b/SKILL.md` -> `skill://a/b` (the skill's root directory);
/// nullopt for a URI that does not end in `/SKILL.md` after a skill path.
MCP_API std::optional<std::string_view> skill_root(std::string_view skill_md_uri) noexcept;
/// The last segment of the skill path: the name the frontmatter must give.
MCP_API std::optional<std::string_view> name_in_uri(std::string_view skill_md_uri) noexcept;

/// Deep equality of JSON values where numbers compare by value (an integer
/// 2 equals a double 2.0), as a host compares a file's frontmatter with an
/// entry's.
MCP_API bool same_json(const json::value& a, const json::value& b) noexcept;

/// Whether `bytes` is well-formed UTF-8 (served as text when it is, as a
/// base64 blob otherwise).
MCP_API bool is_utf8(std::string_view bytes) noexcept;

}  // namespace skills

}  // namespace mcp
