// Behaviour of the version table, dialects and version negotiation, and a
// cross-check of the dialect flags against the official JSON schemas.

#include <mcp/protocol/versions.hpp>

#include "spec_schema.hpp"

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace mcp;
namespace json = boost::json;
using v = protocol_version;

constexpr std::array all_versions{v::v2024_11_05, v::v2025_03_26, v::v2025_06_18, v::v2025_11_25,
                                  v::v2026_07_28};

// --- the table ----------------------------------------------------------------

TEST(Versions, TableListsFiveRevisionsOldestFirstWithNamesAndEras) {
  struct expected {
    protocol_version version;
    std::string_view name;
    protocol_era era;
  };
  constexpr std::array<expected, 5> table{{
      {v::v2024_11_05, "2024-11-05", protocol_era::legacy},
      {v::v2025_03_26, "2025-03-26", protocol_era::legacy},
      {v::v2025_06_18, "2025-06-18", protocol_era::legacy},
      {v::v2025_11_25, "2025-11-25", protocol_era::legacy},
      {v::v2026_07_28, "2026-07-28", protocol_era::modern},
  }};
  const auto dialects = all_dialects();
  ASSERT_EQ(dialects.size(), table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    SCOPED_TRACE(table[i].name);
    EXPECT_EQ(dialects[i].version, table[i].version);
    EXPECT_EQ(dialects[i].name, table[i].name);
    EXPECT_EQ(dialects[i].era, table[i].era);
    EXPECT_EQ(is_modern(table[i].version), table[i].era == protocol_era::modern);
  }
}

TEST(Versions, DialectNamesSortLikeTheRevisions) {
  // The revisions are dates: oldest first means names ascend.
  const auto dialects = all_dialects();
  for (std::size_t i = 1; i < dialects.size(); ++i) {
    EXPECT_LT(dialects[i - 1].name, dialects[i].name);
    EXPECT_LT(dialects[i - 1].version, dialects[i].version);
  }
}

TEST(Versions, DialectOfReturnsTheEntryForThatVersion) {
  for (auto version : all_versions) {
    const dialect& d = dialect_of(version);
    EXPECT_EQ(d.version, version);
    EXPECT_EQ(&d, &all_dialects()[static_cast<std::size_t>(version)]);
  }
}

TEST(Versions, ToStringAndParseRoundTrip) {
  for (auto version : all_versions) {
    const auto text = to_string(version);
    EXPECT_EQ(text, dialect_of(version).name);
    auto parsed = parse_protocol_version(text);
    ASSERT_TRUE(parsed.has_value()) << text;
    EXPECT_EQ(*parsed, version);
  }
}

TEST(Versions, UnknownStringsAreRejected) {
  using namespace std::string_view_literals;
  for (std::string_view text :
       {""sv, "2025-03-27"sv, "2024-11-5"sv, "2025-3-26"sv, " 2025-03-26"sv, "2025-03-26 "sv,
        "2025-03-26\n"sv, "2025-03-2"sv, "2025-03-266"sv, "latest"sv, "draft"sv, "DRAFT-2026-v1"sv,
        "2025/03/26"sv, "20250326"sv, "2025-03-26\0"sv, "1.0"sv, "2.0"sv})
    EXPECT_FALSE(parse_protocol_version(text).has_value()) << "'" << text << "'";
}

TEST(Versions, OnlyTheNewestRevisionIsModern) {
  for (auto version : all_versions)
    EXPECT_EQ(dialect_of(version).era == protocol_era::modern, version == v::v2026_07_28)
        << to_string(version);
}

TEST(Versions, LegacyVersionsAreTheFourLegacyRevisionsOldestFirst) {
  const auto legacy = legacy_versions();
  const std::vector<protocol_version> got(legacy.begin(), legacy.end());
  EXPECT_EQ(got, (std::vector<protocol_version>{v::v2024_11_05, v::v2025_03_26, v::v2025_06_18,
                                                v::v2025_11_25}));
  for (auto version : legacy) EXPECT_EQ(dialect_of(version).era, protocol_era::legacy);
  EXPECT_EQ(latest_legacy_version, v::v2025_11_25);
  EXPECT_EQ(latest_legacy_version, legacy.back());
}

TEST(Versions, DefaultHttpVersionIs20250326) {
  EXPECT_EQ(default_http_version, v::v2025_03_26);
  EXPECT_EQ(to_string(default_http_version), "2025-03-26");
}

// --- dialect flags --------------------------------------------------------------

TEST(Dialect, BatchesOnlyIn20250326) {
  for (auto version : all_versions)
    EXPECT_EQ(dialect_of(version).batches, version == v::v2025_03_26) << to_string(version);
}

TEST(Dialect, OldestRevisionHasNoOptionalFeatures) {
  const dialect& d = dialect_of(v::v2024_11_05);
  EXPECT_FALSE(d.batches);
  EXPECT_FALSE(d.progress_message);
  EXPECT_FALSE(d.audio_content);
  EXPECT_FALSE(d.tool_annotations);
  EXPECT_FALSE(d.completions);
  EXPECT_FALSE(d.structured_content);
  EXPECT_FALSE(d.titles);
  EXPECT_FALSE(d.elicitation);
  EXPECT_FALSE(d.protocol_version_header);
  EXPECT_FALSE(d.icons);
  EXPECT_FALSE(d.url_elicitation);
}

TEST(Dialect, FeaturesAppearInTheRevisionThatIntroducedThem) {
  auto since = [](protocol_version first, bool dialect::*flag) {
    for (auto version : all_versions)
      EXPECT_EQ(dialect_of(version).*flag, version >= first) << to_string(version);
  };
  {
    SCOPED_TRACE("progress_message");
    since(v::v2025_03_26, &dialect::progress_message);
  }
  {
    SCOPED_TRACE("audio_content");
    since(v::v2025_03_26, &dialect::audio_content);
  }
  {
    SCOPED_TRACE("tool_annotations");
    since(v::v2025_03_26, &dialect::tool_annotations);
  }
  {
    SCOPED_TRACE("completions");
    since(v::v2025_03_26, &dialect::completions);
  }
  {
    SCOPED_TRACE("structured_content");
    since(v::v2025_06_18, &dialect::structured_content);
  }
  {
    SCOPED_TRACE("titles");
    since(v::v2025_06_18, &dialect::titles);
  }
  {
    SCOPED_TRACE("elicitation");
    since(v::v2025_06_18, &dialect::elicitation);
  }
  {
    SCOPED_TRACE("protocol_version_header");
    since(v::v2025_06_18, &dialect::protocol_version_header);
  }
  {
    SCOPED_TRACE("icons");
    since(v::v2025_11_25, &dialect::icons);
  }
  {
    SCOPED_TRACE("url_elicitation");
    since(v::v2025_11_25, &dialect::url_elicitation);
  }
}

// --- negotiation ------------------------------------------------------------------

TEST(Negotiation, SupportedRequestedVersionIsReturned) {
  for (auto version : legacy_versions())
    EXPECT_EQ(negotiate_version(to_string(version), legacy_versions()), version)
        << to_string(version);
}

TEST(Negotiation, UnknownRequestedVersionGetsLatestSupportedLegacy) {
  EXPECT_EQ(negotiate_version("1999-01-01", legacy_versions()), v::v2025_11_25);
  EXPECT_EQ(negotiate_version("", legacy_versions()), v::v2025_11_25);
  EXPECT_EQ(negotiate_version("2099-12-31", legacy_versions()), v::v2025_11_25);
}

TEST(Negotiation, ModernVersionRequestedViaInitializeGetsLatestLegacy) {
  // 2026-07-28 has no initialize: a client asking for it there gets a legacy answer.
  EXPECT_EQ(negotiate_version("2026-07-28", legacy_versions()), v::v2025_11_25);
  const std::array with_modern{v::v2025_06_18, v::v2026_07_28};
  EXPECT_EQ(negotiate_version("2026-07-28", with_modern), v::v2025_06_18);
  EXPECT_EQ(negotiate_version("2026-07-28", all_versions), v::v2025_11_25);
}

TEST(Negotiation, RequestedVersionMissingFromSupportedListGetsLatestInList) {
  const std::array supported{v::v2024_11_05, v::v2025_06_18};
  EXPECT_EQ(negotiate_version("2025-03-26", supported), v::v2025_06_18);
  EXPECT_EQ(negotiate_version("2025-11-25", supported), v::v2025_06_18);
  EXPECT_EQ(negotiate_version("2024-11-05", supported), v::v2024_11_05);
}

TEST(Negotiation, OnlyOldVersionsSupportedGetsNewestOfThem) {
  const std::array only_oldest{v::v2024_11_05};
  EXPECT_EQ(negotiate_version("2025-11-25", only_oldest), v::v2024_11_05);
  EXPECT_EQ(negotiate_version("garbage", only_oldest), v::v2024_11_05);
  const std::array old_two{v::v2024_11_05, v::v2025_03_26};
  EXPECT_EQ(negotiate_version("2025-06-18", old_two), v::v2025_03_26);
}

TEST(Negotiation, SupportedListOrderDoesNotMatter) {
  const std::array unordered{v::v2025_06_18, v::v2024_11_05, v::v2025_03_26};
  EXPECT_EQ(negotiate_version("unknown", unordered), v::v2025_06_18);
  EXPECT_EQ(negotiate_version("2025-03-26", unordered), v::v2025_03_26);
}

TEST(Negotiation, RequestedStringMustMatchExactly) {
  const std::array supported{v::v2024_11_05, v::v2025_03_26};
  EXPECT_EQ(negotiate_version("2024-11-05 ", supported), v::v2025_03_26);
}

// --- cross-check against the official schemas ---------------------------------------

TEST(DialectSchema, FlagsMatchTheOfficialSchemas) {
  const auto spec_dir = mcp::test::spec_dir();
  if (spec_dir.empty()) GTEST_SKIP() << "spec folder not found: '" << CADUCEUS_SPEC_DIR << "'";

  for (const dialect& d : all_dialects()) {
    const auto file = spec_dir / std::string(d.name) / "schema.json";
    SCOPED_TRACE(file.string());
    ASSERT_TRUE(std::filesystem::exists(file));
    const mcp::test::spec_schema schema(file);
    ASSERT_TRUE(schema.ok()) << "no definitions / $defs";
    ASSERT_TRUE(schema.has("CallToolResult"));
    ASSERT_TRUE(schema.has("Tool"));
    ASSERT_TRUE(schema.has("Implementation"));

    EXPECT_EQ(d.batches, schema.has("JSONRPCBatchRequest"));
    EXPECT_EQ(d.audio_content, schema.has("AudioContent"));
    EXPECT_EQ(d.tool_annotations, schema.has("ToolAnnotations"));
    EXPECT_EQ(d.tool_annotations, schema.has_property("Tool", "annotations"));
    EXPECT_EQ(d.completions, schema.has_property("ServerCapabilities", "completions"));

    const auto* progress = schema.nested_properties("ProgressNotification", "params");
    ASSERT_NE(progress, nullptr);
    EXPECT_EQ(d.progress_message, progress->contains("message"));

    EXPECT_EQ(d.structured_content, schema.has_property("CallToolResult", "structuredContent"));
    EXPECT_EQ(d.structured_content, schema.has_property("Tool", "outputSchema"));
    EXPECT_EQ(d.structured_content, schema.has("ResourceLink"));

    EXPECT_EQ(d.titles, schema.has("BaseMetadata"));
    EXPECT_EQ(d.titles, schema.has_property("Tool", "title"));
    EXPECT_EQ(d.titles, schema.has_property("Implementation", "title"));

    EXPECT_EQ(d.elicitation, schema.has("ElicitRequest"));

    EXPECT_EQ(d.icons, schema.has("Icon"));
    EXPECT_EQ(d.icons, schema.has("Icons"));
    EXPECT_EQ(d.icons, schema.has_property("Implementation", "icons"));
    EXPECT_EQ(d.icons, schema.has_property("Implementation", "websiteUrl"));
    EXPECT_EQ(d.icons, schema.has_property("Implementation", "description"));

    EXPECT_EQ(d.url_elicitation, schema.has("ElicitRequestURLParams"));
  }
}

}  // namespace
