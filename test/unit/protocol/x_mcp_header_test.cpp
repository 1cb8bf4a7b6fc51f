// x-mcp-header (basic/transports/streamable-http): which annotations a tool
// may carry, what a call mirrors, and how a server compares the headers.

#include "../../src/protocol/x_mcp_header.hpp"

#include <boost/json/parse.hpp>
#include <limits>
#include <map>
#include <gtest/gtest.h>

namespace mcp::detail {
namespace {

json::object schema(std::string_view text) { return json::parse(text).as_object(); }

TEST(XMcpHeader, AnnotationsThroughPropertiesAreMirrored) {
  std::string why;
  const auto params = mirrored_params(
      schema(R"({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"},
                 "opts":{"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}}}})"),
      why);
  ASSERT_TRUE(params) << why;
  ASSERT_EQ(params->size(), 2u);
  const json::object arguments{{"region", "us-west1"}, {"opts", {{"n", 42}}}};
  const auto headers = mirror_arguments(*params, arguments);
  EXPECT_EQ(headers, (std::vector<std::pair<std::string, std::string>>{{"Mcp-Param-Region", "us-west1"},
                                                                        {"Mcp-Param-N", "42"}}));
}

// Found by fuzzing (http_rules): an integer written as a double beyond
// int64's range (6.3e114) was converted to one, which is undefined.
TEST(XMcpHeader, OnlyWholeNumbersInJavaScriptsSafeRangeAreMirrored) {
  std::string why;
  const auto params =
      mirrored_params(schema(R"({"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"}}})"), why);
  ASSERT_TRUE(params) << why;
  const auto mirrored = [&](json::value n) { return mirror_arguments(*params, json::object{{"n", std::move(n)}}); };
  EXPECT_EQ(mirrored(42.0), (std::vector<std::pair<std::string, std::string>>{{"Mcp-Param-N", "42"}}));
  EXPECT_EQ(mirrored(-9007199254740991.0),
            (std::vector<std::pair<std::string, std::string>>{{"Mcp-Param-N", "-9007199254740991"}}));
  for (const double beyond : {6.31111e+114, 9007199254740992.0, -1e300, 2.5, std::numeric_limits<double>::infinity(),
                              std::numeric_limits<double>::quiet_NaN()})
    EXPECT_TRUE(mirrored(beyond).empty()) << beyond;
}

TEST(XMcpHeader, AnnotationsThatBreakTheRulesAreRefused) {
  for (const auto* text : {
           R"({"properties":{"a":{"type":"string","x-mcp-header":"Bad Name"}}})",
           R"({"properties":{"a":{"type":"number","x-mcp-header":"A"}}})",
           R"({"properties":{"a":{"type":"array","items":{"type":"string","x-mcp-header":"A"}}}})",
           R"({"anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]})",
           R"({"properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}})"}) {
    std::string why;
    EXPECT_FALSE(mirrored_params(schema(text), why)) << text;
    EXPECT_FALSE(why.empty()) << text;
  }
}

TEST(XMcpHeader, ValuesThatAreNotPlainTravelInBase64) {
  EXPECT_EQ(encode_header_value("us-west1"), "us-west1");
  EXPECT_EQ(encode_header_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
  EXPECT_EQ(encode_header_value("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
  EXPECT_EQ(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, \xe4\xb8\x96\xe7\x95\x8c");
  EXPECT_FALSE(decode_header_value("a\x01b"));
}

TEST(XMcpHeader, AServerComparesEachHeaderWithItsArgument) {
  std::string why;
  const auto params = *mirrored_params(
      schema(R"({"properties":{"r":{"type":"string","x-mcp-header":"R"},"n":{"type":"integer","x-mcp-header":"N"}}})"),
      why);
  std::map<std::string, std::string> sent;
  const auto header = [&](std::string_view name) -> std::optional<std::string_view> {
    const auto it = sent.find(std::string(name));
    return it == sent.end() ? std::nullopt : std::optional<std::string_view>(it->second);
  };
  const json::object arguments{{"r", "eu"}, {"n", 42}};
  sent = {{"Mcp-Param-R", "eu"}, {"Mcp-Param-N", "42.0"}};
  EXPECT_FALSE(mirrored_mismatch(params, arguments, header));
  sent = {{"Mcp-Param-R", "us"}, {"Mcp-Param-N", "42"}};
  EXPECT_TRUE(mirrored_mismatch(params, arguments, header));
  sent = {{"Mcp-Param-N", "42"}};
  EXPECT_TRUE(mirrored_mismatch(params, arguments, header));  // omitted while the body has it
  // Only integers compare as numbers, and only in decimal.
  const json::object numeric_text{{"r", "42"}, {"n", 42}};
  for (const std::string other : {"42.0", "0x2A", " 42", "4.2e1"}) {
    sent = {{"Mcp-Param-R", other}, {"Mcp-Param-N", "42"}};
    EXPECT_TRUE(mirrored_mismatch(params, numeric_text, header)) << "string argument \"42\", header " << other;
  }
  for (const std::string same : {"42.0", "4.2e1", "42"}) {
    sent = {{"Mcp-Param-R", "42"}, {"Mcp-Param-N", same}};
    EXPECT_FALSE(mirrored_mismatch(params, numeric_text, header)) << same;
  }
  for (const std::string other : {"0x2A", " 42", "42 ", "inf", "+42"}) {
    sent = {{"Mcp-Param-R", "42"}, {"Mcp-Param-N", other}};
    EXPECT_TRUE(mirrored_mismatch(params, numeric_text, header)) << "integer argument 42, header " << other;
  }
  const json::object without_n{{"r", "eu"}, {"n", nullptr}};
  sent = {{"Mcp-Param-R", "eu"}};
  EXPECT_FALSE(mirrored_mismatch(params, without_n, header));  // null: no header expected
}

}  // namespace
}  // namespace mcp::detail
