// The rules of the Skills extension both sides apply (protocol/skills.hpp):
// the frontmatter of a SKILL.md read as a YAML 1.2 core-schema parser reads
// it, and its bounds; digests; names; skill URIs; the JSON form of an entry.

#include <mcp/protocol/skills.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace mcp {
namespace {

json::object fm(std::string_view yaml) { return skills::parse_frontmatter("---\n" + std::string(yaml) + "\n---\nbody\n"); }

TEST(SkillsFrontmatter, ScalarsAreTypedByTheCoreSchema) {
  const auto got = fm(R"(name: pdf-processing
description: "Extract, fill: and assemble"
count: 3
negative: -12
octal: 0o17
hex: 0x1F
ratio: 1.5
exp: 2e3
plus: +1.5
point: .5
not_a_number: +-1.5
yes: true
no: FALSE
nothing: ~
empty:
quoted_number: "3"
single: 'true'
version: 2.1.0
date: 2024-01-02
text: hello world  # a comment
tags: [pdf, forms, 7]
metadata:
  author: someone
  nested:
    deep: [1, {a: b}]
block: |
  line one
  line two
folded: >-
  folded
  text)");
  const auto expected = json::parse(R"({
    "name": "pdf-processing", "description": "Extract, fill: and assemble", "count": 3, "negative": -12,
    "octal": 15, "hex": 31, "ratio": 1.5, "exp": 2000.0, "plus": 1.5, "point": 0.5,
    "not_a_number": "+-1.5", "yes": true, "no": false, "nothing": null,
    "empty": null, "quoted_number": "3", "single": "true", "version": "2.1.0", "date": "2024-01-02",
    "text": "hello world", "tags": ["pdf", "forms", 7],
    "metadata": {"author": "someone", "nested": {"deep": [1, {"a": "b"}]}},
    "block": "line one\nline two\n", "folded": "folded text"})");
  EXPECT_TRUE(skills::same_json(got, expected)) << json::serialize(got);
  EXPECT_TRUE(got.at("count").is_int64());
  EXPECT_TRUE(got.at("ratio").is_double());
}

TEST(SkillsFrontmatter, TheBlockIsFoundAsTheSuiteFindsIt) {
  EXPECT_EQ(skills::frontmatter_text("---\nname: a\n---\nbody"), "name: a");
  EXPECT_EQ(skills::frontmatter_text("\xEF\xBB\xBF---\r\nname: a\r\n---  \r\nbody"), "name: a");
  EXPECT_EQ(skills::frontmatter_text("---\nname: a\n---"), "name: a");
  EXPECT_EQ(skills::frontmatter_text("---\na: 1\n----\nb: 2\n---\n"), "a: 1\n----\nb: 2");
  EXPECT_FALSE(skills::frontmatter_text("name: a\n---\n"));
  EXPECT_FALSE(skills::frontmatter_text(" ---\nname: a\n---\n"));
  EXPECT_FALSE(skills::frontmatter_text("---\nname: a\n"));  // never closed
}

TEST(SkillsFrontmatter, WhatCannotBeReadIsRefused) {
  const auto refused = [](std::string_view md) {
    EXPECT_THROW(skills::parse_frontmatter(md), skills::frontmatter_error) << md;
  };
  refused("no frontmatter at all\n");
  refused("---\n- a\n- b\n---\n");                 // not a mapping
  refused("---\nname: a\nname: b\n---\n");         // a key twice
  refused("---\nname: [unclosed\n---\n");          // not YAML
  refused("---\nbig: .inf\n---\n");                // JSON has no infinity
  refused("---\n? [complex, key]\n: v\n---\n");    // a key JSON cannot hold
  refused("---\nx: !custom 3\n---\n");             // an unknown tag
  refused("---\n" + std::string("a: ") + std::string(70 * 1024, 'x') + "\n---\n");  // too long
  // Nested deeper than 32 levels.
  std::string deep = "---\na: ";
  for (int i = 0; i < 40; ++i) deep += "[";
  for (int i = 0; i < 40; ++i) deep += "]";
  refused(deep + "\n---\n");
  // A billion laughs: aliases that would multiply into millions of values.
  std::string laughs = "---\na: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'h'; ++c, ++prev) {
    laughs += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) laughs += std::string(i ? ", *" : "*") + prev;
    laughs += "]\n";
  }
  refused(laughs + "---\n");
}

TEST(Skills, DigestsAreSha256InLowercaseHex) {
  EXPECT_EQ(skills::digest(""), "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(skills::digest("abc"), "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_TRUE(skills::is_digest(skills::digest("x")));
  EXPECT_FALSE(skills::is_digest("sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD"));
  EXPECT_FALSE(skills::is_digest("sha256:abc"));
  EXPECT_FALSE(skills::is_digest("md5:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
}

TEST(Skills, NamesFollowTheAgentSkillsRules) {
  for (const auto* good : {"a", "pdf-processing", "x1", "a-b-c", "0"}) EXPECT_TRUE(skills::is_valid_name(good)) << good;
  for (const auto* bad : {"", "-a", "a-", "a--b", "PDF", "a_b", "a.b", "a b", "ü"})
    EXPECT_FALSE(skills::is_valid_name(bad)) << bad;
  EXPECT_TRUE(skills::is_valid_name(std::string(64, 'a')));
  EXPECT_FALSE(skills::is_valid_name(std::string(65, 'a')));
}

TEST(Skills, TheUriNamesTheSkillAndItsRoot) {
  EXPECT_EQ(skills::skill_root("skill://acme/billing/refunds/SKILL.md"), "skill://acme/billing/refunds");
  EXPECT_EQ(skills::name_in_uri("skill://acme/billing/refunds/SKILL.md"), "refunds");
  EXPECT_EQ(skills::name_in_uri("github://o/r/skills/x/SKILL.md"), "x");
  EXPECT_FALSE(skills::skill_root("skill://SKILL.md"));
  EXPECT_FALSE(skills::skill_root("skill:///SKILL.md"));
  EXPECT_FALSE(skills::skill_root("skill://a/README.md"));
  EXPECT_FALSE(skills::skill_root("no-scheme/SKILL.md"));
}

TEST(Skills, NumbersCompareByValue) {
  EXPECT_TRUE(skills::same_json(json::value(2), json::value(2.0)));
  EXPECT_TRUE(skills::same_json(json::value(std::uint64_t{5}), json::value(std::int64_t{5})));
  EXPECT_FALSE(skills::same_json(json::value(2), json::value("2")));
  EXPECT_FALSE(skills::same_json(json::parse(R"({"a":1})"), json::parse(R"({"a":1,"b":null})")));
  EXPECT_TRUE(skills::same_json(json::parse(R"({"a":[1,{"b":2.0}]})"), json::parse(R"({"a":[1.0,{"b":2}]})")));
}

TEST(Skills, Utf8IsCheckedStrictly) {
  EXPECT_TRUE(skills::is_utf8("plain ascii"));
  EXPECT_TRUE(skills::is_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
  EXPECT_FALSE(skills::is_utf8("\xC3"));               // cut short
  EXPECT_FALSE(skills::is_utf8("\xC0\xAF"));           // overlong
  EXPECT_FALSE(skills::is_utf8("\xED\xA0\x80"));       // a surrogate
  EXPECT_FALSE(skills::is_utf8("\xF4\x90\x80\x80"));   // past U+10FFFF
  EXPECT_FALSE(skills::is_utf8(std::string("\x89PNG\r\n\x1a\n\0", 9)));
}

TEST(Skills, AnEntryReadsAndWritesBothFormsOfResources) {
  const auto listed = json::parse(R"({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a","description":"d"},
      "resources":[{"uri":"skill://a/SKILL.md","digest":"sha256:00","size":12}]})");
  const auto entry = from_json<skill_entry>(listed);
  ASSERT_NE(entry.files(), nullptr);
  EXPECT_EQ(entry.files()->at(0).size, 12u);
  EXPECT_FALSE(entry.dynamic());
  EXPECT_EQ(entry.name(), "a");
  EXPECT_EQ(to_json_value(entry), listed);

  const auto dynamic = from_json<skill_entry>(
      json::parse(R"({"uri":"skill://a/SKILL.md","frontmatter":{"name":"a"},"resources":"dynamic"})"));
  EXPECT_TRUE(dynamic.dynamic());
  EXPECT_EQ(dynamic.files(), nullptr);
  // resources is required, and a file needs its size.
  EXPECT_THROW(from_json<skill_entry>(json::parse(R"({"uri":"u","frontmatter":{}})")), conversion_error);
  EXPECT_THROW(from_json<skill_entry>(json::parse(
                   R"({"uri":"u","frontmatter":{},"resources":[{"uri":"u","digest":"sha256:00"}]})")),
               conversion_error);
}

}  // namespace
}  // namespace mcp
