#pragma once
// Using the skills a server serves (SEP-2640, the `io.modelcontextprotocol/skills`
// extension) from an mcp::client: discovery, and the host's skill-loading
// path, which verifies every file it reads against the skill's entry.
//
//   if (mcp::offers_skills(c)) {
//     auto skills = co_await mcp::list_skills(c);          // reads no file
//     auto skill = co_await mcp::load_skill(c, skills[0]); // SKILL.md, verified
//     auto forms = co_await mcp::read_skill_file(c, skill, "references/FORMS.md");
//   }
//
// Listing fetches nothing else: files are read when they are needed (the
// SEP's "no prefetch"). A read is used only once it matches the entry: its
// size, its SHA-256 digest and, for SKILL.md, its YAML frontmatter field by
// field; a file the entry does not list is not read at all. Any mismatch
// throws skill_verification_error and the content is dropped. A stale entry
// is refreshed with get_skill. Digests prove the listing and the content
// agree, not that either is trustworthy: skill content is untrusted input.
//
// These functions are in caduceus::skills, an optional part (it reads YAML
// with yaml-cpp; docs/platforms.md): link it to call them.

#include <mcp/export.hpp>
#include <mcp/client/client.hpp>
#include <mcp/error.hpp>
#include <mcp/protocol/skills.hpp>

#include <boost/system/errc.hpp>

#include <string>
#include <utility>
#include <vector>

namespace mcp {

/// Whether the server declared the skills extension
/// (`capabilities.extensions["io.modelcontextprotocol/skills"]`, 2026-07-28).
MCP_API bool offers_skills(const client& c);
/// Whether it also declared `directoryRead: true` (read_directory).
MCP_API bool offers_directory_read(const client& c);

/// `skills/list`, following `nextCursor` (at most 1,000 pages). An empty or
/// partial listing does not mean the server has no other skills.
/// Cancellation: the client's request's (client.hpp), for the page in flight.
MCP_API asio::awaitable<std::vector<skill_entry>> list_skills(client& c);
/// `skills/get`: the current entry of the skill whose SKILL.md is at `uri`,
/// listed or not; protocol_error -32602 when the server serves none there,
/// malformed_result when its answer has no skill. Cancellation: the
/// client's request's.
MCP_API asio::awaitable<skill_entry> get_skill(client& c, std::string uri);
/// `resources/directory/read` of a directory resource, following
/// `nextCursor`: its direct children, subdirectories with mime type
/// inode/directory. Only for a server that offers_directory_read.
/// Cancellation: the client's request's, for the page in flight.
MCP_API asio::awaitable<std::vector<resource_info>> read_directory(client& c, std::string uri);

/// A skill file that does not match the entry it was read under.
/// Code: boost::system::errc::bad_message.
class MCP_API skill_verification_error : public error {
 public:
  /// What did not match.
  enum class reason {
    malformed_entry,       ///< the entry breaks the SEP's rules (no manifest, a name not in its URI ...)
    over_limits,           ///< more than 512 files or 16 MiB (skills::max_files, max_total_bytes)
    unlisted_file,         ///< the file is not in the entry's manifest, or outside the skill
    no_content,            ///< the read returned nothing usable
    size_mismatch,         ///< byte length differs from the entry's `size`
    digest_mismatch,       ///< SHA-256 differs from the entry's `digest`
    frontmatter_mismatch,  ///< SKILL.md's frontmatter differs from the entry's (or is unreadable)
  };
  /// `message` is what() as it is; `uri` the file (or skill) it is about.
  skill_verification_error(reason why, std::string uri, const std::string& message)
      : error(make_error_code(boost::system::errc::bad_message), message, whole_message{}),
        reason_(why),
        uri_(std::move(uri)) {}
  /// What did not match.
  reason why() const noexcept { return reason_; }
  /// The URI of the file, or of the skill's SKILL.md, that did not match.
  const std::string& uri() const noexcept { return uri_; }

 private:
  reason reason_;
  std::string uri_;
};

/// A skill loaded through the host's skill-loading path.
struct MCP_API loaded_skill {
  skill_entry entry;  ///< the entry it was loaded under: later reads are verified against it
  std::string root;   ///< the skill's directory, `skill://<skill-path>`
  std::string instructions;  ///< the verified SKILL.md
};

/// Reads the skill's SKILL.md and verifies it against `entry`: the entry's
/// own rules, then the size and digest of the bytes read, then the
/// frontmatter. A "dynamic" skill (no digests) gets the frontmatter check.
/// Cancellation: the client's request's (its `resources/read`).
/// @throws skill_verification_error; nothing of an unverified read is kept.
MCP_API asio::awaitable<loaded_skill> load_skill(client& c, skill_entry entry);

/// A supporting file of a loaded skill: `path` relative to the skill's root
/// as SKILL.md writes it ("references/FORMS.md", "./a/../b.md"), or a full
/// URI. Only a file the entry lists is read, and its bytes are verified.
/// Returns the raw bytes (a blob is decoded). Cancellation: the client's
/// request's (its `resources/read`).
/// @throws skill_verification_error
MCP_API asio::awaitable<std::string> read_skill_file(client& c, const loaded_skill& skill, std::string path);

// The completion-token forms (as client::async_...): each is the coroutine
// above, started on the client's executor; `c`, and `skill` for
// async_read_skill_file, must outlive it. Cancellation: the coroutine's,
// any type on the token's slot counting as terminal.

/// list_skills(): `void(std::exception_ptr, std::vector<skill_entry>)`.
template <class CompletionToken>
auto async_list_skills(client& c, CompletionToken&& token) {
  return detail::async_run(list_skills(c), c.get_executor(), std::forward<CompletionToken>(token));
}

/// get_skill(): `void(std::exception_ptr, skill_entry)`.
template <class CompletionToken>
auto async_get_skill(client& c, std::string uri, CompletionToken&& token) {
  return detail::async_run(get_skill(c, std::move(uri)), c.get_executor(), std::forward<CompletionToken>(token));
}

/// read_directory(): `void(std::exception_ptr, std::vector<resource_info>)`.
template <class CompletionToken>
auto async_read_directory(client& c, std::string uri, CompletionToken&& token) {
  return detail::async_run(read_directory(c, std::move(uri)), c.get_executor(),
                           std::forward<CompletionToken>(token));
}

/// load_skill(): `void(std::exception_ptr, loaded_skill)`.
template <class CompletionToken>
auto async_load_skill(client& c, skill_entry entry, CompletionToken&& token) {
  return detail::async_run(load_skill(c, std::move(entry)), c.get_executor(), std::forward<CompletionToken>(token));
}

/// read_skill_file(): `void(std::exception_ptr, std::string)`; `skill` must outlive it.
template <class CompletionToken>
auto async_read_skill_file(client& c, const loaded_skill& skill, std::string path, CompletionToken&& token) {
  return detail::async_run(read_skill_file(c, skill, std::move(path)), c.get_executor(),
                           std::forward<CompletionToken>(token));
}

}  // namespace mcp
