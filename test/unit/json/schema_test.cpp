// Schemas derived from C++ types, compared with goldens as parsed JSON values.

#include <mcp/json/schema.hpp>

#include "test_types.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

namespace json = boost::json;
using mcp::schema_of;

#define EXPECT_SCHEMA(T, golden) EXPECT_EQ(json::value(schema_of<T>()), json::parse(golden))

TEST(SchemaOfScalars, MapsEachCppTypeToItsJsonType) {
  EXPECT_SCHEMA(bool, R"({"type":"boolean"})");
  EXPECT_SCHEMA(double, R"({"type":"number"})");
  EXPECT_SCHEMA(float, R"({"type":"number"})");
  EXPECT_SCHEMA(std::string, R"({"type":"string"})");
  EXPECT_SCHEMA(json::string, R"({"type":"string"})");
  EXPECT_SCHEMA(json::value, R"({})");
  EXPECT_SCHEMA(json::object, R"({"type":"object"})");
  EXPECT_SCHEMA(json::array, R"({"type":"array"})");
}

TEST(SchemaOfIntegers, NarrowTypesCarryTheirRangeAndUnsignedTypesAMinimumOfZero) {
  EXPECT_SCHEMA(std::int8_t, R"({"type":"integer","minimum":-128,"maximum":127})");
  EXPECT_SCHEMA(std::uint8_t, R"({"type":"integer","minimum":0,"maximum":255})");
  EXPECT_SCHEMA(std::int16_t, R"({"type":"integer","minimum":-32768,"maximum":32767})");
  EXPECT_SCHEMA(std::uint16_t, R"({"type":"integer","minimum":0,"maximum":65535})");
  EXPECT_SCHEMA(std::int16_t, R"({"type":"integer","minimum":-32768,"maximum":32767})");
  EXPECT_SCHEMA(std::int32_t, R"({"type":"integer"})");
  EXPECT_SCHEMA(std::uint32_t, R"({"type":"integer","minimum":0})");
  EXPECT_SCHEMA(std::int64_t, R"({"type":"integer"})");
  EXPECT_SCHEMA(std::uint64_t, R"({"type":"integer","minimum":0})");
}

TEST(SchemaOfContainers, OptionalVectorMapAndVariant) {
  using map_of_vectors = std::map<std::string, std::vector<double>>;
  using variant = std::variant<std::int64_t, std::string, std::vector<bool>>;
  EXPECT_SCHEMA(std::optional<std::string>, R"({"type":"string"})");
  EXPECT_SCHEMA(std::vector<bool>, R"({"type":"array","items":{"type":"boolean"}})");
  EXPECT_SCHEMA(map_of_vectors,
                R"({"type":"object","additionalProperties":{"type":"array","items":{"type":"number"}}})");
  EXPECT_SCHEMA(variant,
                R"({"anyOf":[{"type":"integer"},{"type":"string"},
                             {"type":"array","items":{"type":"boolean"}}]})");
}

TEST(SchemaOfEnum, IsAStringWithTheEnumeratorNames) {
  EXPECT_SCHEMA(weather::units, R"({"type":"string","enum":["metric","imperial"]})");
}

TEST(SchemaOfStruct, ToolArgumentsWithHookMetadataAndADefault) {
  EXPECT_SCHEMA(weather::forecast_args, R"({
    "type": "object",
    "description": "Where and how far ahead to forecast",
    "properties": {
      "city": {"type": "string", "description": "City name", "minLength": 1},
      "unit": {"type": "string", "enum": ["metric", "imperial"]},
      "days": {"type": "integer", "description": "Days ahead", "minimum": 1, "maximum": 7,
               "default": 1}
    },
    "required": ["city"]
  })");
}

TEST(SchemaOfStruct, NestedStructsVectorsMapsVariantsAndRawJson) {
  EXPECT_SCHEMA(shop::order, R"({
    "type": "object",
    "properties": {
      "id": {"type": "string", "description": "Order number", "pattern": "^[A-Z]{3}-[0-9]+$"},
      "ship_to": {
        "type": "object",
        "title": "Postal address",
        "properties": {
          "street": {"type": "string"},
          "city": {"type": "string"},
          "zip": {"type": "string"}
        },
        "required": ["street", "city"]
      },
      "items": {
        "type": "array",
        "items": {
          "type": "object",
          "properties": {
            "name": {"type": "string"},
            "quantity": {"type": "integer", "minimum": 0, "default": 1},
            "unit_price": {"type": "number"}
          },
          "required": ["name", "unit_price"]
        },
        "minItems": 1,
        "maxItems": 50
      },
      "tags": {"type": "object", "additionalProperties": {"type": "string"}},
      "reference": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
      "gift": {"type": "boolean"},
      "notes": {"type": "array", "items": {"type": "string"}},
      "extra": {"description": "Anything else"}
    },
    "required": ["id", "ship_to", "items", "reference"]
  })");
}

TEST(SchemaOfStruct, BaseMembersComeFirstAndTheDerivedHookOverridesTheBases) {
  EXPECT_SCHEMA(shop::comment, R"({
    "type": "object",
    "properties": {
      "created_at": {"type": "integer", "description": "Seconds since the epoch", "minimum": 0},
      "author": {"type": "string", "description": "Author's handle"},
      "text": {"type": "string", "maxLength": 280}
    },
    "required": ["created_at", "text"]
  })");
}

struct search_args {
  std::string query;
  std::optional<std::string> lang;
  double threshold = 0.5;
  std::vector<std::string> sources;
  std::optional<int> page;
  std::string mode = "fast";
  json::value filter;
};
BOOST_DESCRIBE_STRUCT(search_args, (), (query, lang, threshold, sources, page, mode, filter))

inline auto mcp_fields(mcp::type_t<search_args>) {
  return std::tuple{
      mcp::field(&search_args::query).title("Query").description("What to look for")
          .min_length(1).max_length(200),
      mcp::field(&search_args::lang).pattern("^[a-z]{2}$").format("iso-639-1"),
      mcp::field(&search_args::threshold).exclusive_minimum(0).exclusive_maximum(1),
      mcp::field(&search_args::sources).min_items(1).max_items(5),
      mcp::field(&search_args::page).minimum(1).required(),
      mcp::field(&search_args::mode).one_of({"fast", "thorough"}),
      mcp::field(&search_args::filter).default_value(json::object{})};
}
inline std::string_view mcp_title(mcp::type_t<search_args>) { return "Search"; }
inline std::string_view mcp_description(mcp::type_t<search_args>) {
  return "Search the catalogue";
}

TEST(SchemaOfStruct, EveryHookKeywordLandsInTheSchema) {
  EXPECT_SCHEMA(search_args, R"({
    "type": "object",
    "title": "Search",
    "description": "Search the catalogue",
    "properties": {
      "query": {"type": "string", "title": "Query", "description": "What to look for",
                "minLength": 1, "maxLength": 200},
      "lang": {"type": "string", "pattern": "^[a-z]{2}$", "format": "iso-639-1"},
      "threshold": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1,
                    "default": 0.5},
      "sources": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 5},
      "page": {"type": "integer", "minimum": 1},
      "mode": {"type": "string", "enum": ["fast", "thorough"], "default": "fast"},
      "filter": {"default": {}}
    },
    "required": ["query", "sources", "page"]
  })");
}

struct nothing {};
BOOST_DESCRIBE_STRUCT(nothing, (), ())

TEST(SchemaOfStruct, AnEmptyStructIsAnObjectWithNoRequiredList) {
  EXPECT_SCHEMA(nothing, R"({"type":"object","properties":{}})");
}

TEST(SchemaOfStruct, PropertiesFollowDeclarationOrderAndOutputIsDeterministic) {
  const auto schema = schema_of<shop::order>();
  std::vector<std::string> keys;
  for (const auto& property : schema.at("properties").as_object())
    keys.emplace_back(property.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"id", "ship_to", "items", "tags", "reference", "gift",
                                            "notes", "extra"}));
  EXPECT_EQ(json::serialize(schema), json::serialize(schema_of<shop::order>()));
}

TEST(SchemaOf, NeverEmitsSchemaKeywordsDraft07LacksNorDollarSchema) {
  // Every keyword schema_of can produce, checked against the ones draft-07 knows.
  const std::vector<std::string> draft07{
      "type", "properties", "required", "items", "additionalProperties", "enum", "anyOf",
      "title", "description", "default", "minimum", "maximum", "exclusiveMinimum",
      "exclusiveMaximum", "minLength", "maxLength", "pattern", "format", "minItems", "maxItems"};
  std::function<void(const json::value&)> check = [&](const json::value& schema) {
    for (const auto& keyword : schema.as_object()) {
      const std::string key(keyword.key());
      EXPECT_NE(std::find(draft07.begin(), draft07.end(), key), draft07.end()) << key;
      if (key == "properties")
        for (const auto& p : keyword.value().as_object()) check(p.value());
      else if (key == "items" || key == "additionalProperties")
        check(keyword.value());
      else if (key == "anyOf")
        for (const auto& s : keyword.value().as_array()) check(s);
    }
  };
  check(schema_of<shop::order>());
  check(schema_of<search_args>());
  check(schema_of<shop::comment>());
}

TEST(SchemaOf, PropertiesAreNamedByTheirJsonKeys) {
  const auto schema = mcp::schema_of<shop::listing>();
  EXPECT_TRUE(schema.at("properties").as_object().contains("displayName"));
  EXPECT_TRUE(schema.at("properties").as_object().contains("_meta"));
  EXPECT_EQ(schema.at("required"), json::parse(R"(["displayName"])"));
}

}  // namespace
