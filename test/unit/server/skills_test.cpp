// Skills (SEP-2640) served by mcp::server and used by mcp::client
// (client/skills.hpp), over a memory pair: what a skill's entry holds, what
// is not served (paths outside a skill, links leading out, dot-files),
// pagination, the capability per era, refused skills, and what the client's
// verification catches (a changed file, an unlisted one, a frontmatter that
// differs from the entry's).

#include <mcp/client/skills.hpp>
#include <mcp/error.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/server/server.hpp>
#include <mcp/transport/memory.hpp>

#include "memory_server_client.hpp"
#include "server_harness.hpp"
#include "test_support.hpp"

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace mcp::test {
namespace {

namespace fs = std::filesystem;
using reason = skill_verification_error::reason;

constexpr std::string_view pdf_skill_md = R"(---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
metadata:
  version: "2.1.0"
---

Read references/FORMS.md first.
)";

// A temporary folder, removed with everything in it.
struct temp_dir {
  temp_dir() {
    std::string pattern = (fs::temp_directory_path() / "caduceus-skills-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path = pattern;
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const fs::path& relative, std::string_view content) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative, std::ios::binary) << content;
  }
  fs::path path;
};

// A skill with a subdirectory, a hidden file, a binary file, a link inside
// it and a link that leads out of it.
void write_pdf_skill(const temp_dir& dir, const fs::path& skill) {
  dir.write(skill / "SKILL.md", pdf_skill_md);
  dir.write(skill / "references/FORMS.md", "# Forms\n");
  dir.write(skill / "templates/regional/eu-invoice.md", "# EU\n");
  dir.write(skill / "assets/logo.png", std::string("\x89PNG\r\n\x1a\n\0\xff", 10));
  dir.write(skill / ".secret", "not served");
  dir.write("outside.txt", "the secret next door");
  fs::create_symlink(dir.path / "outside.txt", dir.path / skill / "leak.txt");
  fs::create_symlink(dir.path / skill / "references/FORMS.md", dir.path / skill / "forms-link.md");
}

std::vector<skill_source_file> small_skill(std::string name, std::string body = "Body.\n") {
  return {{"SKILL.md", "---\nname: " + name + "\ndescription: The " + name + " skill\n---\n" + body},
          {"notes/a.md", "a for " + name + "\n"}};
}

template <class T>
asio::awaitable<int> error_code_of(asio::awaitable<T> call) {
  try {
    co_await std::move(call);
  } catch (const protocol_error& e) {
    co_return e.error().code;
  }
  co_return 0;
}

template <class T>
asio::awaitable<std::optional<reason>> refusal_of(asio::awaitable<T> call) {
  try {
    co_await std::move(call);
  } catch (const skill_verification_error& e) {
    co_return e.why();
  }
  co_return std::nullopt;
}

// Serves `srv` on a memory pair and runs `body` with a connected client (2026-07-28 by default).
void with_client(mcp::server& srv, std::function<asio::awaitable<void>(mcp::client&)> body,
                 client_options options = {}) {
  serve_and_connect(srv, std::move(options), [](mcp::client&) {}, std::move(body));
}

const skill_file* find_file(const skill_entry& entry, std::string_view uri) {
  for (const auto& f : *entry.files())
    if (f.uri == uri) return &f;
  return nullptr;
}

TEST(SkillsServer, ADirectorySkillHasEveryFileWithItsDigestAndSize) {
  temp_dir dir;
  write_pdf_skill(dir, "pdf");
  mcp::server srv({"skills", "1.0"});
  const auto entry = srv.add_skill(dir.path / "pdf");
  EXPECT_EQ(entry.uri, "skill://pdf-processing/SKILL.md");
  EXPECT_EQ(entry.name(), "pdf-processing");
  EXPECT_EQ(entry.frontmatter.at("metadata").at("version"), "2.1.0");
  ASSERT_NE(entry.files(), nullptr);
  std::vector<std::string> uris;
  for (const auto& f : *entry.files()) uris.push_back(f.uri);
  // SKILL.md first, then by path; the hidden file and the link leading out are left out.
  EXPECT_EQ(uris, (std::vector<std::string>{"skill://pdf-processing/SKILL.md", "skill://pdf-processing/assets/logo.png",
                                            "skill://pdf-processing/forms-link.md",
                                            "skill://pdf-processing/references/FORMS.md",
                                            "skill://pdf-processing/templates/regional/eu-invoice.md"}));
  const auto* manifest = find_file(entry, entry.uri);
  EXPECT_EQ(manifest->size, pdf_skill_md.size());
  EXPECT_EQ(manifest->digest, skills::digest(pdf_skill_md));
  EXPECT_EQ(find_file(entry, "skill://pdf-processing/forms-link.md")->digest, skills::digest("# Forms\n"));

  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    EXPECT_TRUE(offers_skills(c));
    EXPECT_TRUE(offers_directory_read(c));
    const auto listed = co_await list_skills(c);
    EXPECT_EQ(listed.size(), 1u);
    EXPECT_EQ(to_json_value(listed.at(0)), to_json_value(entry));
    // SKILL.md is also an ordinary resource, named and described by its frontmatter.
    const auto resources = co_await c.list_resources();
    CO_ASSERT_TRUE(resources.size() == 1u);
    EXPECT_EQ(resources[0].name, "pdf-processing");
    EXPECT_EQ(resources[0].description, "Extract, fill, and assemble PDF documents");
    EXPECT_EQ(resources[0].mime_type, "text/markdown");
    // A binary file is a blob whose bytes match its entry.
    auto logo = std::string("skill://pdf-processing/assets/logo.png");
    const auto contents = co_await c.read_resource(std::move(logo));
    CO_ASSERT_TRUE(contents.size() == 1u);
    EXPECT_TRUE(contents[0].blob.has_value());
    EXPECT_EQ(contents[0].mime_type, "image/png");
    // Directories: direct children, subdirectories as inode/directory.
    const auto root = co_await read_directory(c, "skill://pdf-processing");
    std::vector<std::pair<std::string, std::string>> children;
    for (const auto& r : root) children.emplace_back(r.name, r.mime_type.value_or(""));
    EXPECT_EQ(children, (std::vector<std::pair<std::string, std::string>>{{"SKILL.md", "text/markdown"},
                                                                          {"assets", "inode/directory"},
                                                                          {"forms-link.md", "text/markdown"},
                                                                          {"references", "inode/directory"},
                                                                          {"templates", "inode/directory"}}));
    const auto regional = co_await read_directory(c, "skill://pdf-processing/templates/regional");
    CO_ASSERT_TRUE(regional.size() == 1u);
    EXPECT_EQ(regional[0].uri, "skill://pdf-processing/templates/regional/eu-invoice.md");
  });
}

TEST(SkillsServer, NothingOutsideASkillIsServed) {
  temp_dir dir;
  write_pdf_skill(dir, "pdf");
  mcp::server srv({"skills", "1.0"});
  srv.add_skill(dir.path / "pdf");
  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    for (const auto* uri : {"skill://pdf-processing/leak.txt", "skill://pdf-processing/.secret",
                            "skill://pdf-processing/../outside.txt", "skill://pdf-processing/references/../../outside.txt",
                            "skill://outside.txt", "skill://pdf-processing/references", "skill://pdf-processing"}) {
      std::string requested = uri;
      const auto code = co_await error_code_of(c.read_resource(std::move(requested)));
      EXPECT_NE(code, 0) << uri << " was served";
    }
    // A directory read of a file, of an unknown directory, or with a trailing slash: -32602.
    for (const auto* uri : {"skill://pdf-processing/SKILL.md", "skill://pdf-processing/nowhere",
                            "skill://pdf-processing/", "skill://pdf-processing/../", "skill://other"}) {
      const auto code = co_await error_code_of(read_directory(c, uri));
      EXPECT_EQ(code, errc::invalid_params) << uri;
    }
    // skills/get of a URI that is not a skill: -32602.
    const auto unknown = co_await error_code_of(get_skill(c, "skill://nope/SKILL.md"));
    EXPECT_EQ(unknown, errc::invalid_params);
    const auto file = co_await error_code_of(get_skill(c, "skill://pdf-processing/references/FORMS.md"));
    EXPECT_EQ(file, errc::invalid_params);
  });
}

TEST(SkillsServer, TheListingPagesAndGetAnswersForUnlistedSkills) {
  server_options options;
  options.page_size = 2;
  mcp::server srv({"skills", "1.0"}, options);
  for (const auto* name : {"alpha", "beta", "gamma", "delta", "epsilon"}) srv.add_skill(small_skill(name), skill_options{});
  skill_options unlisted;
  unlisted.listed = false;
  unlisted.prefix = "hidden/team";
  srv.add_skill(small_skill("zeta"), unlisted);
  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    json::object first_page;
    const auto page = co_await c.request(methods::skills_list, std::move(first_page));
    EXPECT_EQ(page.at("skills").as_array().size(), 2u);
    CO_ASSERT_TRUE(page.contains("nextCursor"));
    EXPECT_TRUE(page.contains("ttlMs"));  // 2026-07-28: list caching attributes
    const auto all = co_await list_skills(c);
    std::vector<std::string> names;
    for (const auto& e : all) names.push_back(e.name());
    EXPECT_EQ(names, (std::vector<std::string>{"alpha", "beta", "gamma", "delta", "epsilon"}));
    json::object bad_cursor{{"cursor", "not-a-cursor"}};
    const auto refused = co_await error_code_of(c.request(methods::skills_list, std::move(bad_cursor)));
    EXPECT_EQ(refused, errc::invalid_params);
    const auto zeta = co_await get_skill(c, "skill://hidden/team/zeta/SKILL.md");
    EXPECT_EQ(zeta.name(), "zeta");
    // A loaded unlisted skill reads like any other.
    const auto loaded = co_await load_skill(c, zeta);
    const auto notes = co_await read_skill_file(c, loaded, "notes/a.md");
    EXPECT_EQ(notes, "a for zeta\n");
  });
  EXPECT_TRUE(srv.remove_skill("skill://alpha/SKILL.md"));
  EXPECT_FALSE(srv.remove_skill("skill://alpha/SKILL.md"));
}

TEST(SkillsServer, TheExtensionIsDeclaredFrom2026AndOnlyOnceASkillIsServed) {
  mcp::server plain({"plain", "1.0"});
  EXPECT_FALSE(plain.capabilities().contains("extensions"));
  with_client(plain, [&](mcp::client& c) -> asio::awaitable<void> {
    EXPECT_FALSE(offers_skills(c));
    json::object none;
    const auto code = co_await error_code_of(c.request(methods::skills_list, std::move(none)));
    EXPECT_EQ(code, errc::method_not_found);
  });

  mcp::server srv({"skills", "1.0"});
  srv.add_skill(small_skill("alpha"), skill_options{});
  const auto caps = srv.capabilities();
  EXPECT_EQ(caps.at("extensions").at("io.modelcontextprotocol/skills").at("directoryRead"), true);
  EXPECT_TRUE(caps.contains("resources"));  // the extension needs resources/read
  // A 2025-11-25 session: its capabilities have no `extensions`; the methods answer all the same.
  run_test([&]() -> asio::awaitable<void> {
    auto shared = std::shared_ptr<mcp::server>(&srv, [](mcp::server*) {});
    harness h(co_await asio::this_coro::executor, shared);
    const auto hello = co_await h.initialize("2025-11-25");
    EXPECT_FALSE(hello.at("result").at("capabilities").as_object().contains("extensions"));
    const auto list = co_await h.call(1, "skills/list");
    EXPECT_EQ(list.at("result").at("skills").as_array().size(), 1u);
    EXPECT_FALSE(list.at("result").as_object().contains("ttlMs"));
  });
}

TEST(SkillsServer, SkillsThatBreakTheRulesAreRefused) {
  mcp::server srv({"skills", "1.0"});
  const auto refused = [&](std::vector<skill_source_file> files, const skill_options& options = {}) {
    EXPECT_THROW(srv.add_skill(std::move(files), options), mcp::invalid_argument);
  };
  refused({{"README.md", "no SKILL.md"}});
  refused({{"SKILL.md", "no frontmatter\n"}});
  refused({{"SKILL.md", "---\nname: Bad_Name\ndescription: d\n---\n"}});
  refused({{"SKILL.md", "---\nname: ok\n---\n"}});  // no description
  refused({{"SKILL.md", "---\nname: ok\ndescription: d\n---\n"}, {"../escape.md", "x"}});
  refused({{"SKILL.md", "---\nname: ok\ndescription: d\n---\n"}, {"/etc/passwd", "x"}});
  refused({{"SKILL.md", "---\nname: ok\ndescription: d\n---\n"}, {"a//b.md", "x"}});
  refused({{"SKILL.md", "---\nname: ok\ndescription: d\n---\n"}, {"a.md", "x"}, {"a.md", "y"}});
  skill_options few;
  few.max_files = 1;
  refused(small_skill("ok"), few);
  skill_options small;
  small.max_total_bytes = 10;
  refused(small_skill("ok"), small);
  skill_options bad_prefix;
  bad_prefix.prefix = "a/../b";
  refused(small_skill("ok"), bad_prefix);
  EXPECT_FALSE(srv.capabilities().contains("extensions"));  // nothing was added

  temp_dir dir;
  dir.write("empty/README.md", "no skill here");
  EXPECT_THROW(srv.add_skill(dir.path / "empty"), mcp::invalid_argument);
  EXPECT_THROW(srv.add_skill(dir.path / "missing"), std::filesystem::filesystem_error);
  for (int i = 0; i < 4; ++i) dir.write("big/f" + std::to_string(i), std::string(100, 'x'));
  dir.write("big/SKILL.md", "---\nname: big\ndescription: d\n---\n");
  skill_options tight;
  tight.max_total_bytes = 300;
  EXPECT_THROW(srv.add_skill(dir.path / "big", tight), mcp::invalid_argument);
  tight.max_total_bytes = 1000;
  tight.max_files = 3;
  EXPECT_THROW(srv.add_skill(dir.path / "big", tight), mcp::invalid_argument);
}

TEST(SkillsServer, ADirectoryOfSkillsGivesEachItsPath) {
  temp_dir dir;
  write_pdf_skill(dir, "skills/pdf-processing");
  dir.write("skills/acme/billing/refunds/SKILL.md", "---\nname: refunds\ndescription: Refunds\n---\n");
  dir.write("skills/acme/billing/refunds/examples/email.md", "Dear customer\n");
  dir.write("skills/.hidden/SKILL.md", "---\nname: hidden\ndescription: h\n---\n");
  mcp::server srv({"skills", "1.0"});
  const auto added = srv.add_skills_directory(dir.path / "skills");
  std::vector<std::string> uris;
  for (const auto& e : added) uris.push_back(e.uri);
  EXPECT_EQ(uris, (std::vector<std::string>{"skill://pdf-processing/SKILL.md", "skill://acme/billing/refunds/SKILL.md"}));
  EXPECT_EQ(find_file(added[1], "skill://acme/billing/refunds/examples/email.md")->size, 14u);
}

TEST(SkillsClient, TheCompletionTokenFormsLoadAndReadTheSameSkill) {
  temp_dir dir;
  write_pdf_skill(dir, "pdf");
  mcp::server srv({"skills", "1.0"});
  srv.add_skill(dir.path / "pdf");
  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    auto [listing_failed, entries] = co_await async_list_skills(c, asio::as_tuple(asio::use_awaitable));
    EXPECT_FALSE(listing_failed);
    CO_ASSERT_TRUE(entries.size() == 1u);
    const auto skill = co_await async_load_skill(c, std::move(entries.at(0)), asio::use_awaitable);
    EXPECT_EQ(skill.instructions, pdf_skill_md);
    std::string path = "references/FORMS.md";
    const auto got = co_await async_read_skill_file(c, skill, std::move(path), asio::use_awaitable);
    EXPECT_EQ(got, "# Forms\n");
  });
}

TEST(SkillsClient, LoadsASkillAndReadsItsFilesVerified) {
  temp_dir dir;
  write_pdf_skill(dir, "pdf");
  mcp::server srv({"skills", "1.0"});
  srv.add_skill(dir.path / "pdf");
  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    auto entries = co_await list_skills(c);
    const auto skill = co_await load_skill(c, std::move(entries.at(0)));
    EXPECT_EQ(skill.instructions, pdf_skill_md);
    EXPECT_EQ(skill.root, "skill://pdf-processing");
    {
      const auto got = co_await read_skill_file(c, skill, "references/FORMS.md");
      EXPECT_EQ(got, "# Forms\n");
    }
    {
      const auto got = co_await read_skill_file(c, skill, "./templates/../references/FORMS.md");
      EXPECT_EQ(got, "# Forms\n");
    }
    const auto logo = co_await read_skill_file(c, skill, "skill://pdf-processing/assets/logo.png");
    EXPECT_EQ(logo, std::string("\x89PNG\r\n\x1a\n\0\xff", 10));
    // Files the entry does not list are not read: outside the skill, or unknown to it.
    {
      const auto got = co_await refusal_of(read_skill_file(c, skill, "../other/SKILL.md"));
      EXPECT_EQ(got, reason::unlisted_file);
    }
    {
      const auto got = co_await refusal_of(read_skill_file(c, skill, "leak.txt"));
      EXPECT_EQ(got, reason::unlisted_file);
    }
    {
      const auto got = co_await refusal_of(read_skill_file(c, skill, "skill://other/SKILL.md"));
      EXPECT_EQ(got, reason::unlisted_file);
    }
  });
}

TEST(SkillsClient, AChangedSkillFailsVerificationUntilItsEntryIsRefreshed) {
  mcp::server srv({"skills", "1.0"});
  srv.add_skill(small_skill("alpha", "Version one.\n"), skill_options{});
  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    auto entries = co_await list_skills(c);
    const auto old_entry = entries.at(0);
    // The same size, other bytes: the digest catches it.
    srv.add_skill(small_skill("alpha", "Version two.\n"), skill_options{});
    {
      const auto got = co_await refusal_of(load_skill(c, old_entry));
      EXPECT_EQ(got, reason::digest_mismatch);
    }
    // Another size: caught before hashing.
    srv.add_skill(small_skill("alpha", "Version three, longer.\n"), skill_options{});
    {
      const auto got = co_await refusal_of(load_skill(c, old_entry));
      EXPECT_EQ(got, reason::size_mismatch);
    }
    // A file added after the entry was taken is not part of the skill loaded under it.
    auto files = small_skill("alpha", "Version three, longer.\n");
    files.push_back({"notes/new.md", "new\n"});
    srv.add_skill(std::move(files), skill_options{});
    auto fresh = co_await get_skill(c, old_entry.uri);
    auto stale = fresh;
    std::get<std::vector<skill_file>>(stale.resources).pop_back();  // the entry before notes/new.md
    const auto loaded_stale = co_await load_skill(c, stale);
    {
      const auto got = co_await refusal_of(read_skill_file(c, loaded_stale, "notes/new.md"));
      EXPECT_EQ(got, reason::unlisted_file);
    }
    const auto loaded = co_await load_skill(c, fresh);
    {
      const auto got = co_await read_skill_file(c, loaded, "notes/new.md");
      EXPECT_EQ(got, "new\n");
    }
  });
}

// A server whose listing says something else than the SKILL.md it serves.
class lying_server : public mcp::server {
 public:
  lying_server() : mcp::server({"liar", "1.0"}) {}
  std::optional<json::object> handle_request_at_once(const request& req, request_context& ctx) override {
    auto result = mcp::server::handle_request_at_once(req, ctx);
    if (result && req.method == methods::skills_list)
      for (auto& entry : result->at("skills").as_array())
        entry.as_object()["frontmatter"].as_object()["description"] = "Something harmless";
    return result;
  }
};

TEST(SkillsClient, AFrontmatterThatDiffersFromTheEntryIsNotLoaded) {
  lying_server srv;
  srv.add_skill(small_skill("alpha"), skill_options{});
  with_client(srv, [&](mcp::client& c) -> asio::awaitable<void> {
    auto entries = co_await list_skills(c);
    EXPECT_EQ(entries.at(0).description(), "Something harmless");
    {
      const auto got = co_await refusal_of(load_skill(c, entries.at(0)));
      EXPECT_EQ(got, reason::frontmatter_mismatch);
    }
    // An entry that breaks the rules is refused before anything is read.
    auto renamed = entries.at(0);
    renamed.frontmatter["name"] = "beta";
    {
      const auto got = co_await refusal_of(load_skill(c, renamed));
      EXPECT_EQ(got, reason::malformed_entry);
    }
    auto without_manifest = entries.at(0);
    std::get<std::vector<skill_file>>(without_manifest.resources).clear();
    {
      const auto got = co_await refusal_of(load_skill(c, without_manifest));
      EXPECT_EQ(got, reason::malformed_entry);
    }
  });
}

}  // namespace
}  // namespace mcp::test
