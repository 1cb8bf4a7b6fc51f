// Conversion between JSON and C++ types: every kind of type both ways, every
// kind of error with the exact pointer, the requiredness rule, the hook.

#include <mcp/json/convert.hpp>

#include "test_types.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace {

namespace json = boost::json;
using mcp::conversion_error;
using mcp::from_json;
using mcp::to_json_value;

/// The conversion_error that reading `text` as T throws, or a failure.
template <class T>
conversion_error read_error(std::string_view text) {
  try {
    (void)from_json<T>(json::parse(text));
  } catch (const conversion_error& e) {
    return e;
  }
  ADD_FAILURE() << "reading " << text << " did not throw";
  return conversion_error("", "");
}

#define EXPECT_READ_ERROR(T, text, pointer_, reason_) \
  do {                                                 \
    const auto e = read_error<T>(text);                \
    EXPECT_EQ(e.pointer(), pointer_);                  \
    EXPECT_EQ(e.reason(), reason_);                    \
  } while (false)

// --- which types convert --------------------------------------------------------------

static_assert(mcp::json_convertible<bool>);
static_assert(mcp::json_convertible<std::uint8_t>);
static_assert(mcp::json_convertible<long long>);
static_assert(mcp::json_convertible<float>);
static_assert(mcp::json_convertible<std::string>);
static_assert(mcp::json_convertible<json::value>);
static_assert(mcp::json_convertible<std::optional<std::vector<std::map<std::string, int>>>>);
static_assert(mcp::json_convertible<std::variant<int, std::string, weather::units>>);
static_assert(mcp::json_convertible<weather::forecast_args>);
static_assert(mcp::json_convertible<shop::comment>);
static_assert(!mcp::json_convertible<char>, "characters are text, not numbers");
static_assert(!mcp::json_convertible<std::vector<char>>);
static_assert(!mcp::json_convertible<std::map<int, int>>, "object keys are strings");
static_assert(!mcp::json_convertible<const char*>);
static_assert(!mcp::json_convertible<std::variant<int, void*>>);

enum class undescribed_enum { a };
static_assert(!mcp::json_convertible<undescribed_enum>);

// --- scalars ---------------------------------------------------------------------------

TEST(ConvertBool, ReadsAndWritesBooleans) {
  EXPECT_TRUE(from_json<bool>(true));
  EXPECT_FALSE(from_json<bool>(false));
  EXPECT_EQ(to_json_value(true), json::value(true));
}

TEST(ConvertBool, RejectsOtherKindsNamingWhatItGot) {
  EXPECT_READ_ERROR(bool, "1", "", "expected boolean, got integer");
  EXPECT_READ_ERROR(bool, "\"true\"", "", "expected boolean, got string");
  EXPECT_READ_ERROR(bool, "null", "", "expected boolean, got null");
}

TEST(ConvertInteger, ReadsIntegersAndWholeDoubles) {
  EXPECT_EQ(from_json<int>(json::parse("3")), 3);
  EXPECT_EQ(from_json<int>(json::parse("3.0")), 3);
  EXPECT_EQ(from_json<int>(json::parse("-2e3")), -2000);
  EXPECT_EQ(from_json<std::uint64_t>(json::parse("18446744073709551615")),
            std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(from_json<std::int64_t>(json::parse("-9223372036854775808")),
            std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(from_json<std::uint8_t>(json::parse("255")), 255);
  EXPECT_EQ(from_json<std::int8_t>(json::parse("-128")), -128);
}

TEST(ConvertInteger, RejectsFractionsAndOtherKinds) {
  EXPECT_READ_ERROR(int, "3.5", "", "expected integer, got number");
  EXPECT_READ_ERROR(int, "\"3\"", "", "expected integer, got string");
  EXPECT_READ_ERROR(int, "true", "", "expected integer, got boolean");
  EXPECT_READ_ERROR(int, "[]", "", "expected integer, got array");
}

TEST(ConvertInteger, RejectsValuesOutsideTheTypesRange) {
  EXPECT_READ_ERROR(std::uint8_t, "300", "", "must be <= 255");
  EXPECT_READ_ERROR(std::uint8_t, "-1", "", "must be >= 0");
  EXPECT_READ_ERROR(std::int8_t, "-129", "", "must be >= -128");
  EXPECT_READ_ERROR(std::int16_t, "40000.0", "", "must be <= 32767");
  EXPECT_READ_ERROR(int, "1e300", "", "must be <= 2147483647");
  EXPECT_READ_ERROR(std::int64_t, "9223372036854775808", "", "must be <= 9223372036854775807");
  EXPECT_READ_ERROR(std::int64_t, "9223372036854775808.0", "", "must be <= 9223372036854775807");
  EXPECT_READ_ERROR(std::uint64_t, "-1.0", "", "must be >= 0");
}

TEST(ConvertInteger, WritesSignedAsInt64AndUnsignedAsUint64) {
  EXPECT_TRUE(to_json_value(std::int8_t{-5}).is_int64());
  EXPECT_EQ(to_json_value(std::int8_t{-5}).as_int64(), -5);
  EXPECT_TRUE(to_json_value(std::uint16_t{7}).is_uint64());
  EXPECT_EQ(to_json_value(std::numeric_limits<std::uint64_t>::max()).as_uint64(),
            std::numeric_limits<std::uint64_t>::max());
}

TEST(ConvertFloating, ReadsAnyNumber) {
  EXPECT_DOUBLE_EQ(from_json<double>(json::parse("2.5")), 2.5);
  EXPECT_DOUBLE_EQ(from_json<double>(json::parse("7")), 7.0);
  EXPECT_DOUBLE_EQ(from_json<double>(json::parse("18446744073709551615")), 18446744073709551615.0);
  EXPECT_FLOAT_EQ(from_json<float>(json::parse("0.25")), 0.25f);
  EXPECT_EQ(to_json_value(0.5), json::value(0.5));
  EXPECT_TRUE(to_json_value(1.0f).is_double());
}

TEST(ConvertFloating, RejectsNonNumbersAndFloatOverflow) {
  EXPECT_READ_ERROR(double, "\"1.5\"", "", "expected number, got string");
  EXPECT_READ_ERROR(double, "null", "", "expected number, got null");
  EXPECT_READ_ERROR(float, "1e300", "", "is out of range for float");
}

TEST(ConvertString, ReadsAndWritesStrings) {
  EXPECT_EQ(from_json<std::string>(json::parse("\"h\\u00e9llo\"")), "h\xC3\xA9llo");
  EXPECT_EQ(to_json_value(std::string("x")), json::value("x"));
  EXPECT_READ_ERROR(std::string, "42", "", "expected string, got integer");
}

// --- Boost.JSON passthrough ----------------------------------------------------------------

TEST(ConvertPassthrough, CopiesBoostJsonValuesUnchanged) {
  const auto doc = json::parse(R"({"a":[1,{"b":null}]})");
  EXPECT_EQ(from_json<json::value>(doc), doc);
  EXPECT_EQ(from_json<json::object>(doc), doc.as_object());
  EXPECT_EQ(from_json<json::array>(doc.at("a")), doc.at("a").as_array());
  EXPECT_EQ(from_json<json::string>(json::value("s")), "s");
  EXPECT_EQ(to_json_value(doc), doc);
  EXPECT_EQ(to_json_value(doc.as_object()), doc);
}

TEST(ConvertPassthrough, ChecksTheKindOfObjectArrayAndString) {
  EXPECT_READ_ERROR(json::object, "[]", "", "expected object, got array");
  EXPECT_READ_ERROR(json::array, "{}", "", "expected array, got object");
  EXPECT_READ_ERROR(json::string, "1.5", "", "expected string, got number");
}

// --- optional, vector, map -------------------------------------------------------------------

TEST(ConvertOptional, ReadsNullAsEmptyAndAValueAsItself) {
  EXPECT_EQ(from_json<std::optional<int>>(nullptr), std::nullopt);
  EXPECT_EQ(from_json<std::optional<int>>(json::value(4)), 4);
  EXPECT_READ_ERROR(std::optional<int>, "\"4\"", "", "expected integer, got string");
}

TEST(ConvertOptional, WritesEmptyAsNullAtTheTopAndAsAbsentInAStruct) {
  EXPECT_EQ(to_json_value(std::optional<int>{}), json::value(nullptr));
  EXPECT_EQ(to_json_value(std::optional<int>{4}), json::value(4));
  const weather::forecast_args args{"Paris", std::nullopt, 2};
  EXPECT_EQ(to_json_value(args), json::parse(R"({"city":"Paris","days":2})"));
}

TEST(ConvertVector, ReadsAndWritesArraysInOrder) {
  EXPECT_EQ(from_json<std::vector<int>>(json::parse("[3,1,2]")), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(from_json<std::vector<bool>>(json::parse("[true,false]")),
            (std::vector<bool>{true, false}));
  EXPECT_EQ(to_json_value(std::vector<std::string>{"a", "b"}), json::parse(R"(["a","b"])"));
  EXPECT_EQ(to_json_value(std::vector<bool>{false, true}), json::parse("[false,true]"));
  EXPECT_EQ(to_json_value(std::vector<int>{}), json::array{});
}

TEST(ConvertVector, NamesTheIndexOfTheBadElement) {
  EXPECT_READ_ERROR(std::vector<int>, "[1,2,\"x\"]", "/2", "expected integer, got string");
  EXPECT_READ_ERROR(std::vector<std::vector<int>>, "[[1],[2,null]]", "/1/1",
                    "expected integer, got null");
  EXPECT_READ_ERROR(std::vector<int>, "{\"0\":1}", "", "expected array, got object");
}

TEST(ConvertMap, ReadsAndWritesObjectsKeyedByString) {
  const auto m = from_json<std::map<std::string, int>>(json::parse(R"({"b":2,"a":1})"));
  EXPECT_EQ(m, (std::map<std::string, int>{{"a", 1}, {"b", 2}}));
  EXPECT_EQ(to_json_value(m), json::parse(R"({"a":1,"b":2})"));
}

TEST(ConvertMap, NamesTheKeyOfTheBadValueEscapingTildeAndSlash) {
  using map = std::map<std::string, int>;
  EXPECT_READ_ERROR(map, R"({"ok":1,"bad":"x"})", "/bad", "expected integer, got string");
  EXPECT_READ_ERROR(map, R"({"a/b":true})", "/a~1b", "expected integer, got boolean");
  EXPECT_READ_ERROR(map, R"({"m~n":true})", "/m~0n", "expected integer, got boolean");
  EXPECT_READ_ERROR(map, R"({"":true})", "/", "expected integer, got boolean");
  EXPECT_READ_ERROR(map, "[]", "", "expected object, got array");
}

// --- enums and variants ------------------------------------------------------------------------

TEST(ConvertEnum, ReadsAndWritesEnumeratorNames) {
  EXPECT_EQ(from_json<weather::units>(json::value("imperial")), weather::units::imperial);
  EXPECT_EQ(to_json_value(weather::units::metric), json::value("metric"));
}

TEST(ConvertEnum, RejectsAnUnknownNameListingTheAllowedOnes) {
  EXPECT_READ_ERROR(weather::units, "\"kelvin\"", "", R"(must be one of ["metric", "imperial"])");
  EXPECT_READ_ERROR(weather::units, "\"Metric\"", "", R"(must be one of ["metric", "imperial"])");
  EXPECT_READ_ERROR(weather::units, "0", "", "expected string, got integer");
}

TEST(ConvertEnum, WritingAValueWithoutANameThrowsWithItsPointer) {
  const std::vector<weather::units> values{weather::units::metric, static_cast<weather::units>(7)};
  try {
    (void)to_json_value(values);
    FAIL() << "expected a conversion_error";
  } catch (const conversion_error& e) {
    EXPECT_EQ(e.pointer(), "/1");
    EXPECT_EQ(e.reason(), "enum value 7 has no described name");
  }
}

TEST(ConvertVariant, ReadsTheFirstAlternativeThatConverts) {
  using v = std::variant<int, double, std::string>;
  EXPECT_EQ(from_json<v>(json::parse("3")).index(), 0u);
  EXPECT_EQ(from_json<v>(json::parse("3.0")).index(), 0u);  // 3.0 is an int too
  EXPECT_EQ(from_json<v>(json::parse("3.5")).index(), 1u);
  EXPECT_EQ(std::get<std::string>(from_json<v>(json::parse("\"x\""))), "x");
  using s = std::variant<weather::units, std::string>;
  EXPECT_EQ(from_json<s>(json::value("metric")).index(), 0u);
  EXPECT_EQ(from_json<s>(json::value("kelvin")).index(), 1u);
}

TEST(ConvertVariant, FailsWhenNoAlternativeConverts) {
  using v = std::variant<int, std::string>;
  EXPECT_READ_ERROR(v, "true", "", "matches none of the variant's alternatives");
  EXPECT_READ_ERROR(std::vector<v>, "[1,\"a\",[]]", "/2",
                    "matches none of the variant's alternatives");
}

TEST(ConvertVariant, WritesTheHeldAlternative) {
  using v = std::variant<int, std::string, weather::units>;
  EXPECT_EQ(to_json_value(v{5}), json::value(5));
  EXPECT_EQ(to_json_value(v{std::string("s")}), json::value("s"));
  EXPECT_EQ(to_json_value(v{weather::units::imperial}), json::value("imperial"));
}

// --- described structs -----------------------------------------------------------------------

TEST(ConvertStruct, ReadsMembersByName) {
  const auto args =
      from_json<weather::forecast_args>(json::parse(R"({"city":"Oslo","unit":"metric","days":3})"));
  EXPECT_EQ(args, (weather::forecast_args{"Oslo", weather::units::metric, 3}));
}

TEST(ConvertStruct, AbsentMembersKeepTheDefaultOfADefaultConstructedStruct) {
  const auto args = from_json<weather::forecast_args>(json::parse(R"({"city":"Oslo"})"));
  EXPECT_EQ(args.unit, std::nullopt);
  EXPECT_EQ(args.days, 1);
}

TEST(ConvertStruct, NullForAnOptionalMemberIsAbsent) {
  const auto args = from_json<weather::forecast_args>(json::parse(R"({"city":"Oslo","unit":null})"));
  EXPECT_EQ(args.unit, std::nullopt);
}

TEST(ConvertStruct, NullForAMemberThatIsNotOptionalIsAnError) {
  EXPECT_READ_ERROR(weather::forecast_args, R"({"city":null})", "/city",
                    "expected string, got null");
  EXPECT_READ_ERROR(weather::forecast_args, R"({"city":"a","days":null})", "/days",
                    "expected integer, got null");
}

TEST(ConvertStruct, UnknownKeysAreIgnored) {
  const auto args = from_json<weather::forecast_args>(
      json::parse(R"({"city":"Oslo","verbose":true,"days":2,"nested":{"x":[]}})"));
  EXPECT_EQ(args, (weather::forecast_args{"Oslo", std::nullopt, 2}));
}

TEST(ConvertStruct, AMissingRequiredMemberIsNamed) {
  EXPECT_READ_ERROR(weather::forecast_args, "{}", "/city", "is required");
  EXPECT_READ_ERROR(weather::forecast_args, "[]", "", "expected object, got array");
}

TEST(ConvertStruct, ErrorsInNestedStructsCarryTheFullPointer) {
  const auto good_item = R"({"name":"pen","unit_price":1.5})";
  const auto order_with = [&](std::string_view third_item) {
    return std::string(R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"reference":7,"items":[)") +
           good_item + "," + good_item + "," + std::string(third_item) + "]}";
  };
  EXPECT_READ_ERROR(shop::order, order_with(R"({"unit_price":2})"), "/items/2/name", "is required");
  EXPECT_READ_ERROR(shop::order, order_with(R"({"name":"x","unit_price":2,"quantity":-3})"),
                    "/items/2/quantity", "must be >= 0");
  EXPECT_READ_ERROR(shop::order, R"({"id":"A","ship_to":{"street":1}})", "/ship_to/street",
                    "expected string, got integer");
  EXPECT_READ_ERROR(shop::order, R"({"id":"A","ship_to":{"street":"s"}})", "/ship_to/city",
                    "is required");
}

TEST(ConvertStruct, MembersAreRequiredUnlessOptionalDefaultedOrHookedOff) {
  // shop::order: id, ship_to, items and reference are required; tags, gift and
  // extra are not (the hook), notes is optional.
  const auto minimal = json::parse(
      R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[],"reference":"r"})");
  const auto o = from_json<shop::order>(minimal);
  EXPECT_FALSE(o.gift);
  EXPECT_TRUE(o.tags.empty());
  EXPECT_EQ(o.notes, std::nullopt);
  EXPECT_TRUE(o.extra.is_null());
  for (const auto* key : {"id", "ship_to", "items", "reference"}) {
    auto copy = minimal.as_object();
    copy.erase(key);
    EXPECT_READ_ERROR(shop::order, json::serialize(copy), std::string("/") + key, "is required");
  }
}

TEST(ConvertStruct, ReadsAndWritesBaseMembersFirst) {
  const auto c = from_json<shop::comment>(json::parse(R"({"text":"hi","created_at":5})"));
  EXPECT_EQ(c.created_at, 5);
  EXPECT_EQ(c.author, "");  // the derived hook made it optional
  EXPECT_EQ(c.text, "hi");
  EXPECT_EQ(json::serialize(to_json_value(c)), R"({"created_at":5,"author":"","text":"hi"})");
}

TEST(ConvertError, WhatIsPointerColonReasonOrTheReasonAloneAtTheRoot) {
  EXPECT_STREQ(read_error<weather::forecast_args>(R"({"city":"x","days":"2"})").what(),
               "/days: expected integer, got string");
  EXPECT_STREQ(read_error<int>("\"2\"").what(), "expected integer, got string");
  const conversion_error e("/a", "why");
  EXPECT_EQ(e.pointer(), "/a");
  EXPECT_EQ(e.reason(), "why");
}

// --- the hook's defaults and overrides ---------------------------------------------------------

struct knobs {
  int level;                    // 0 == int{}: required by the rule...
  int retries;                  // ...but the hook gives a default
  std::optional<int> seed;      // optional, but the hook requires it
  std::string label = "none";   // a default of its own
};
BOOST_DESCRIBE_STRUCT(knobs, (), (level, retries, seed, label))

inline auto mcp_fields(mcp::type_t<knobs>) {
  return std::tuple{mcp::field(&knobs::retries).default_value(3),
                    mcp::field(&knobs::seed).required()};
}

TEST(ConvertHook, AHookDefaultIsAppliedWhenTheMemberIsAbsent) {
  const auto k = from_json<knobs>(json::parse(R"({"level":2,"seed":9})"));
  EXPECT_EQ(k.retries, 3);
  EXPECT_EQ(k.label, "none");
  EXPECT_EQ(from_json<knobs>(json::parse(R"({"level":2,"seed":9,"retries":0})")).retries, 0);
}

TEST(ConvertHook, RequiredOverridesOptionalAndTheRuleStillAppliesElsewhere) {
  EXPECT_READ_ERROR(knobs, R"({"level":1})", "/seed", "is required");
  EXPECT_READ_ERROR(knobs, R"({"level":1,"seed":null})", "/seed", "is required");
  EXPECT_READ_ERROR(knobs, R"({"seed":1})", "/level", "is required");
}

struct hook_names_undescribed_member {
  int a = 0;
  int b = 0;
};
BOOST_DESCRIBE_STRUCT(hook_names_undescribed_member, (), (a))

inline auto mcp_fields(mcp::type_t<hook_names_undescribed_member>) {
  return std::tuple{mcp::field(&hook_names_undescribed_member::b, "not described")};
}

struct hook_default_of_wrong_type {
  int a = 0;
};
BOOST_DESCRIBE_STRUCT(hook_default_of_wrong_type, (), (a))

inline auto mcp_fields(mcp::type_t<hook_default_of_wrong_type>) {
  return std::tuple{mcp::field(&hook_default_of_wrong_type::a).default_value("three")};
}

TEST(ConvertHook, AHookThatContradictsTheStructIsALogicError) {
  EXPECT_THROW((void)from_json<hook_names_undescribed_member>(json::object{}), std::logic_error);
  try {
    (void)from_json<hook_default_of_wrong_type>(json::object{});
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_STREQ(e.what(),
                 "mcp_fields: the default of \"a\" does not convert: expected integer, got string");
  }
}

// --- round trips --------------------------------------------------------------------------------

TEST(ConvertRoundTrip, ValuesSurviveToJsonAndBack) {
  const shop::order o{
      "ABC-42",
      {"1 Main St", "Springfield", "12345"},
      {{"pen", 2, 1.25}, {"ink", 1, 7.5}},
      {{"channel", "web"}, {"promo", "x/y~z"}},
      std::string("PO-7"),
      true,
      std::vector<std::string>{"leave at door"},
      json::parse(R"({"k":[1,2]})")};
  EXPECT_EQ(from_json<shop::order>(to_json_value(o)), o);

  const shop::comment c{{1700000000, "ada"}, "hello"};
  EXPECT_EQ(from_json<shop::comment>(to_json_value(c)), c);

  const std::map<std::string, std::vector<std::optional<weather::units>>> nested{
      {"a", {weather::units::metric, std::nullopt}}};
  EXPECT_EQ(to_json_value(nested), json::parse(R"({"a":["metric",null]})"));
  EXPECT_EQ((from_json<std::map<std::string, std::vector<std::optional<weather::units>>>>(
                to_json_value(nested))),
            nested);
}

TEST(ConvertRoundTrip, JsonSurvivesFromJsonAndBack) {
  const auto text =
      R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"name":"a","quantity":3,"unit_price":0.5}],"tags":{},"reference":12,"gift":false,"extra":null})";
  EXPECT_EQ(to_json_value(from_json<shop::order>(json::parse(text))), json::parse(text));
}

// --- wire names, omission, lenient reading, moves ----------------------------------------------

TEST(ConvertWireNames, MembersAreWrittenAndReadUnderTheirKeysAndDefaultsAreLeftOut) {
  shop::listing l;
  l.display_name = "Report";
  l.mime_type = "text/csv";
  EXPECT_EQ(json::serialize(to_json_value(l)),
            R"({"displayName":"Report","mimeType":"text/csv","stamp":{"created_at":0,"author":""}})");
  l.is_hidden = true;
  l.labels = {"q3"};
  l.meta = {{"k", 1}};
  const auto written = to_json_value(l);
  EXPECT_EQ(json::serialize(written),
            R"({"displayName":"Report","mimeType":"text/csv","isHidden":true,"labels":["q3"],)"
            R"("stamp":{"created_at":0,"author":""},"_meta":{"k":1}})");
  EXPECT_EQ(from_json<shop::listing>(written), l);
}

TEST(ConvertWireNames, AMemberLeftOutWhenDefaultMayBeAbsentButANamedOneIsRequired) {
  const auto l = from_json<shop::listing>(json::parse(R"({"displayName":"x"})"));
  EXPECT_FALSE(l.is_hidden);
  EXPECT_TRUE(l.labels.empty());
  EXPECT_READ_ERROR(shop::listing, R"({"display_name":"x"})", "/displayName", "is required");
  EXPECT_READ_ERROR(shop::listing, R"({"displayName":"x","isHidden":1})", "/isHidden",
                    "expected boolean, got integer");
}

TEST(ConvertLenient, MistypedOptionalMembersKeepTheirDefaults) {
  const auto text = R"({"displayName":"x","mimeType":3,"isHidden":"yes","labels":{},)"
                    R"("stamp":{"created_at":"now","author":"ada"},"_meta":[]})";
  EXPECT_READ_ERROR(shop::listing, text, "/mimeType", "expected string, got integer");
  // created_at is required in stamped: a required member is never skipped.
  EXPECT_THROW((void)from_json<shop::listing>(json::parse(text), {.skip_mistyped_optionals = true}),
               conversion_error);
  const auto l = from_json<shop::listing>(
      json::parse(R"({"displayName":"x","mimeType":3,"isHidden":"yes","labels":{},"stamp":7,"_meta":[]})"),
      {.skip_mistyped_optionals = true});
  shop::listing expected;
  expected.display_name = "x";
  EXPECT_EQ(l, expected);
}

TEST(ConvertLenient, AWrongValueDeeperDownStillFails) {
  try {
    (void)from_json<shop::listing>(json::parse(R"({"displayName":"x","labels":["a",2]})"),
                                   {.skip_mistyped_optionals = true});
    ADD_FAILURE() << "a wrong item was accepted";
  } catch (const conversion_error& e) {
    EXPECT_EQ(e.pointer(), "/labels/1");
  }
  EXPECT_THROW((void)from_json<shop::listing>(json::parse(R"({"displayName":7})"),
                                              {.skip_mistyped_optionals = true}),
               conversion_error);
}

TEST(ConvertMove, AnRvalueHandsOverItsJsonValues) {
  shop::listing l;
  l.display_name = "x";
  l.meta = {{"big", json::array{1, 2, 3}}};
  const auto* inner = &l.meta.at("big").as_array();
  const auto written = to_json_value(std::move(l));
  EXPECT_EQ(&written.at("_meta").at("big").as_array(), inner);  // moved, not copied
}

}  // namespace
