// What differs between revisions in the messages a server sends besides the
// shape of its listings (those are pinned by wire_golden_test): progress,
// input requests, the unknown-resource code, caching hints and mirrored
// argument headers.

#include "../../src/protocol/shaping.hpp"

#include <mcp/protocol/errors.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace mcp::detail {
namespace {

using v = protocol_version;

TEST(Shaping, ProgressCarriesItsMessageFrom20250326On) {
  const json::value token = "t1";
  EXPECT_EQ(json::serialize(progress_params(token, 50, 100, "half", dialect_of(v::v2024_11_05))),
            R"({"progressToken":"t1","progress":50,"total":100})");
  EXPECT_EQ(json::serialize(progress_params(token, 0.5, std::nullopt, "half", dialect_of(v::v2025_03_26))),
            R"({"progressToken":"t1","progress":5E-1,"message":"half"})");
  EXPECT_EQ(json::serialize(progress_params(json::value(7), 3, std::nullopt, "", dialect_of(v::v2026_07_28))),
            R"({"progressToken":7,"progress":3})");
}

TEST(Shaping, ElicitationHasNoModeBefore20251125) {
  auto params = json::parse(R"({"mode":"form","message":"name?"})").as_object();
  shape_input_params(params, dialect_of(v::v2025_11_25));
  EXPECT_EQ(json::serialize(params), R"({"mode":"form","message":"name?"})");
  shape_input_params(params, dialect_of(v::v2025_06_18));
  EXPECT_EQ(json::serialize(params), R"({"message":"name?"})");
}

TEST(Shaping, TheModernEraChangesTheUnknownResourceCodeAndAddsHintsAndHeaders) {
  for (const auto& d : all_dialects()) {
    const bool modern = d.era == protocol_era::modern;
    EXPECT_EQ(resource_not_found_code(d), modern ? errc::invalid_params : errc::resource_not_found) << d.name;
    EXPECT_EQ(carries_cache_hints(d), modern) << d.name;
    EXPECT_EQ(mirrors_arguments_in_headers(d), modern) << d.name;
  }
}

}  // namespace
}  // namespace mcp::detail
