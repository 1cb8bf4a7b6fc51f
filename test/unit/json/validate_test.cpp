// The JSON Schema validator: a table of (schema, instance, expected errors)
// covering every supported keyword; malformed schemas; keywords it reports as
// unsupported; schemas real peers send; and its agreement with from_json and
// schema_of on the same types.

#include <mcp/error.hpp>
#include <mcp/json/convert.hpp>
#include <mcp/json/schema.hpp>
#include <mcp/json/validate.hpp>

#include "test_types.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace json = boost::json;
using mcp::schema_validator;

std::vector<std::string> errors_of(const schema_validator& validator, const json::value& instance) {
  std::vector<std::string> out;
  for (const auto& e : validator.validate(instance)) out.push_back(e.to_string());
  return out;
}

// --- every keyword ---------------------------------------------------------------------------

struct keyword_case {
  const char* name;
  const char* schema;
  const char* instance;
  std::vector<std::string> errors;  ///< validation_error::to_string() of each, in order
};

const keyword_case keyword_cases[] = {
    // type
    {"TypeStringAcceptsAString", R"({"type":"string"})", R"("a")", {}},
    {"TypeStringRejectsAnInteger", R"({"type":"string"})", "1", {"expected string, got integer"}},
    {"TypeListAcceptsAnyListedType", R"({"type":["string","null"]})", "null", {}},
    {"TypeListRejectsOtherTypes", R"({"type":["string","null"]})", "1",
     {"expected string or null, got integer"}},
    {"TypeIntegerAcceptsAWholeDouble", R"({"type":"integer"})", "3.0", {}},
    {"TypeIntegerRejectsAFraction", R"({"type":"integer"})", "3.5",
     {"expected integer, got number"}},
    {"TypeNumberAcceptsAnInteger", R"({"type":"number"})", "3", {}},
    {"TypeBooleanRejectsNull", R"({"type":"boolean"})", "null", {"expected boolean, got null"}},
    {"TypeObjectRejectsAnArray", R"({"type":"object"})", "[]", {"expected object, got array"}},
    {"TypeArrayRejectsAnObject", R"({"type":"array"})", "{}", {"expected array, got object"}},

    // enum and const
    {"EnumAcceptsAnEqualValueWhateverItsNumberForm", R"({"enum":["a",1,null,{"k":[1]}]})",
     R"({"k":[1.0]})", {}},
    {"EnumRejectsOtherValuesListingTheAllowedOnes", R"({"enum":["a",1,null,{"k":[1]}]})", R"("b")",
     {R"(must be one of ["a", 1, null, {"k":[1]}])"}},
    {"ConstAcceptsAnEqualValue", R"({"const":{"a":[1,2],"b":null}})", R"({"b":null,"a":[1,2.0]})",
     {}},
    {"ConstRejectsADifferentValue", R"({"const":{"a":[1,2]}})", R"({"a":[2,1]})",
     {R"(must be {"a":[1,2]})"}},

    // numbers
    {"MinimumIsInclusive", R"({"minimum":1})", "1", {}},
    {"MinimumRejectsSmaller", R"({"minimum":1})", "0.5", {"must be >= 1"}},
    {"MaximumRejectsLarger", R"({"maximum":7.5})", "8", {"must be <= 7.5"}},
    {"ExclusiveMinimumRejectsTheBound", R"({"exclusiveMinimum":0})", "0", {"must be > 0"}},
    {"ExclusiveMinimumAcceptsAbove", R"({"exclusiveMinimum":0})", "0.001", {}},
    {"ExclusiveMaximumRejectsTheBound", R"({"exclusiveMaximum":10})", "10", {"must be < 10"}},
    {"BoundsAreExactBeyondDoublePrecision", R"({"maximum":9007199254740992})",
     "9007199254740993", {"must be <= 9007199254740992"}},
    {"BoundsIgnoreNonNumbers", R"({"minimum":5,"maximum":1})", R"("abc")", {}},
    {"MultipleOfAcceptsAMultiple", R"({"multipleOf":3})", "-9", {}},
    {"MultipleOfRejectsAnIntegerThatIsNot", R"({"multipleOf":3})", "10",
     {"must be a multiple of 3"}},
    {"MultipleOfToleratesBinaryFractions", R"({"multipleOf":0.1})", "0.3", {}},
    {"MultipleOfRejectsAFractionThatIsNot", R"({"multipleOf":0.1})", "0.35",
     {"must be a multiple of 0.1"}},

    // strings
    {"MinLengthCountsCodePointsNotBytes", R"({"minLength":3})", R"("\u00e9\u00e9")",
     {"must be at least 3 characters long"}},
    {"MinLengthOfOneIsSingular", R"({"minLength":1})", R"("")",
     {"must be at least 1 character long"}},
    {"MaxLengthCountsAnEmojiAsOne", R"({"maxLength":2})", R"("\ud83d\ude00\ud83d\ude00")", {}},
    {"MaxLengthRejectsLonger", R"({"maxLength":2})", R"("abc")",
     {"must be at most 2 characters long"}},
    {"PatternMatchesAnywhereInTheString", R"({"pattern":"b"})", R"("abc")", {}},
    {"PatternRejectsANonMatch", R"({"pattern":"^[a-z]+$"})", R"("abc1")",
     {"must match pattern ^[a-z]+$"}},
    {"PatternAnchorsTheWholeStringNotEachLine", R"({"pattern":"^[a-z]+$"})", R"("abc\nDEF")",
     {"must match pattern ^[a-z]+$"}},
    {"PatternDotIsOneCodePointAndNotALineBreak", R"({"pattern":"^a.c$"})", R"("a\ud83d\ude00c")",
     {}},
    {"PatternDotDoesNotMatchALineBreak", R"({"pattern":"^a.c$"})", R"("a\nc")",
     {"must match pattern ^a.c$"}},
    {"PatternUnderstandsUnicodeEscapes", R"({"pattern":"^\\u00e9\\u{1F600}\\ud83d\\ude00$"})",
     R"("\u00e9\ud83d\ude00\ud83d\ude00")", {}},
    {"PatternIgnoresNonStrings", R"({"pattern":"^a","minLength":9})", "5", {}},

    // arrays
    {"ItemsChecksEveryItem", R"({"items":{"type":"integer"}})", R"([1,"a",2,null])",
     {"/1: expected integer, got string", "/3: expected integer, got null"}},
    {"ItemsArrayIsDraft07TupleValidation", R"({"items":[{"type":"string"},{"type":"integer"}]})",
     R"(["a","b",true])", {"/1: expected integer, got string"}},
    {"AdditionalItemsLimitsADraft07Tuple", R"({"items":[{"type":"string"}],"additionalItems":false})",
     R"(["a",1])", {"/1: is not allowed"}},
    {"AdditionalItemsWithoutATupleIsIgnored", R"({"additionalItems":false})", "[1,2]", {}},
    {"PrefixItemsThenItemsForTheRest",
     R"({"prefixItems":[{"type":"string"},{"type":"integer"}],"items":false})", R"(["a",1,2])",
     {"/2: is not allowed"}},
    {"PrefixItemsAllowAShorterArray", R"({"prefixItems":[{"type":"string"},{"type":"integer"}]})",
     R"(["a"])", {}},
    {"MinItemsRejectsFewer", R"({"minItems":2})", "[1]", {"must have at least 2 items"}},
    {"MinItemsOfOneIsSingular", R"({"minItems":1})", "[]", {"must have at least 1 item"}},
    {"MaxItemsRejectsMore", R"({"maxItems":3})", "[1,2,3,4]", {"must have at most 3 items"}},
    {"ItemCountsIgnoreNonArrays", R"({"minItems":2})", R"("ab")", {}},
    {"UniqueItemsComparesNumbersByValue", R"({"uniqueItems":true})", R"([1,{"a":[1]},1.0])",
     {"must have unique items (items 0 and 2 are equal)"}},
    {"UniqueItemsComparesObjectsWhateverTheKeyOrder", R"({"uniqueItems":true})",
     R"([{"a":1,"b":2},{"b":2,"a":1}])", {"must have unique items (items 0 and 1 are equal)"}},
    {"UniqueItemsAcceptsDistinctItems", R"({"uniqueItems":true})", R"([1,"1",true,[1],null])", {}},
    {"UniqueItemsFalseAllowsDuplicates", R"({"uniqueItems":false})", "[1,1]", {}},
    {"ContainsNeedsAMatchingItem", R"({"contains":{"type":"string"}})", "[1,2]",
     {"must contain at least 1 item matching contains"}},
    {"ContainsAcceptsOneMatch", R"({"contains":{"type":"string"}})", R"([1,"a"])", {}},
    {"MinContainsRaisesTheCount", R"({"contains":{"type":"string"},"minContains":2})",
     R"(["a",1])", {"must contain at least 2 items matching contains"}},
    {"MaxContainsCapsTheCount", R"({"contains":{"type":"string"},"maxContains":3})",
     R"(["a","b","c","d"])", {"must contain at most 3 items matching contains"}},
    {"MinContainsZeroAcceptsNoMatch", R"({"contains":{"type":"string"},"minContains":0})", "[1]",
     {}},

    // objects
    {"PropertiesCheckEachPresentProperty",
     R"({"properties":{"a":{"type":"string"},"b":{"type":"integer"},"z":{"type":"null"}}})",
     R"({"a":1,"b":"x","c":null})",
     {"/a: expected string, got integer", "/b: expected integer, got string"}},
    {"PropertiesIgnoreNonObjects", R"({"properties":{"a":{"type":"string"}},"required":["a"]})",
     "[1]", {}},
    {"RequiredNamesEachMissingProperty", R"({"required":["a","b","c"]})", R"({"b":1})",
     {"/a: is required", "/c: is required"}},
    {"AdditionalPropertiesFalseRejectsUnknownKeys",
     R"({"properties":{"a":{}},"additionalProperties":false})", R"({"a":1,"b":2,"c~/":3})",
     {"/b: is not allowed", "/c~0~1: is not allowed"}},
    {"AdditionalPropertiesSchemaChecksUnknownKeys",
     R"({"properties":{"a":{}},"additionalProperties":{"type":"integer"}})", R"({"a":"x","b":"y"})",
     {"/b: expected integer, got string"}},
    {"PatternPropertiesCheckMatchingKeysAndCountAsKnown",
     R"({"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false})",
     R"({"x-a":"ok","x-b":1,"y":true})", {"/x-b: expected string, got integer", "/y: is not allowed"}},
    {"PatternPropertiesSearchAnywhereInTheKey", R"({"patternProperties":{"id":{"type":"integer"}}})",
     R"({"user_id":"x"})", {"/user_id: expected integer, got string"}},
    {"MinPropertiesRejectsFewer", R"({"minProperties":2})", R"({"a":1})",
     {"must have at least 2 properties"}},
    {"MaxPropertiesRejectsMore", R"({"maxProperties":1})", R"({"a":1,"b":2})",
     {"must have at most 1 property"}},
    {"PropertyNamesChecksEveryKey", R"({"propertyNames":{"pattern":"^[a-z]+$"}})",
     R"({"ok":1,"Bad":2})", {"/Bad: property name must match pattern ^[a-z]+$"}},
    {"DependentRequiredAppliesWhenTheTriggerIsPresent",
     R"({"dependentRequired":{"card":["cvv","expiry"]}})", R"({"card":"1","cvv":"2"})",
     {R"(/expiry: is required when "card" is present)"}},
    {"DependentRequiredIsSilentWithoutTheTrigger",
     R"({"dependentRequired":{"card":["cvv","expiry"]}})", R"({"cvv":"2"})", {}},
    {"DependentSchemasApplyWhenTheTriggerIsPresent",
     R"({"dependentSchemas":{"card":{"required":["cvv"]}}})", R"({"card":1})",
     {"/cvv: is required"}},
    {"DependenciesTakesBothDraft07Forms",
     R"({"dependencies":{"a":["b"],"c":{"properties":{"d":{"type":"string"}}}}})",
     R"({"a":1,"c":1,"d":2})",
     {R"(/b: is required when "a" is present)", "/d: expected string, got integer"}},

    // applicators
    {"AllOfReportsTheErrorsOfEachSchema",
     R"({"allOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}}}]})", R"({"b":1})",
     {"/a: is required", "/b: expected string, got integer"}},
    {"AnyOfAcceptsOneMatch", R"({"anyOf":[{"type":"string"},{"type":"integer"}]})", "1", {}},
    {"AnyOfRejectsNoMatch", R"({"anyOf":[{"type":"string"},{"type":"integer"}]})", "true",
     {"must match at least one schema in anyOf"}},
    {"OneOfAcceptsExactlyOneMatch", R"({"oneOf":[{"type":"integer"},{"minimum":0}]})", "3.5", {}},
    {"OneOfRejectsTwoMatches", R"({"oneOf":[{"type":"integer"},{"minimum":0}]})", "3",
     {"must match exactly one schema in oneOf (matched 2)"}},
    {"OneOfRejectsNoMatch", R"({"oneOf":[{"type":"string"},{"minimum":5}]})", "1",
     {"must match exactly one schema in oneOf (matched 0)"}},
    {"NotRejectsAMatch", R"({"not":{"type":"null"}})", "null",
     {"must not match the schema in not"}},
    {"NotAcceptsANonMatch", R"({"not":{"type":"null"}})", "0", {}},
    {"IfTrueAppliesThen",
     R"({"if":{"properties":{"kind":{"const":"card"}}},"then":{"required":["number"]},"else":{"required":["iban"]}})",
     R"({"kind":"card"})", {"/number: is required"}},
    {"IfFalseAppliesElse",
     R"({"if":{"properties":{"kind":{"const":"card"}}},"then":{"required":["number"]},"else":{"required":["iban"]}})",
     R"({"kind":"bank"})", {"/iban: is required"}},
    {"IfAloneConstrainsNothing", R"({"if":false})", "1", {}},

    // references
    {"RefIntoDefs",
     R"({"$defs":{"positive":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/positive"}}})",
     R"({"n":0})", {"/n: must be >= 1"}},
    {"RefIntoDefinitions", R"({"definitions":{"s":{"type":"string"}},"items":{"$ref":"#/definitions/s"}})",
     R"(["a",2])", {"/1: expected string, got integer"}},
    {"RefToTheRootRecurses",
     R"({"type":"object","properties":{"child":{"$ref":"#"}},"additionalProperties":false})",
     R"({"child":{"child":{"x":1}}})", {"/child/child/x: is not allowed"}},
    {"RefThroughDefsRecursesIntoATree",
     R"({"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}}}},"$ref":"#/$defs/node"})",
     R"({"kids":[{"kids":[]},{"kids":[{"kids":5}]}]})", {"/kids/1/kids/0/kids: expected array, got integer"}},
    {"RefDecodesTildeEscapesAndPercentEncoding",
     R"({"$defs":{"a/b":{"type":"string"},"m~n":{"type":"integer"},"sp ace":{"type":"boolean"}},
         "properties":{"x":{"$ref":"#/$defs/a~1b"},"y":{"$ref":"#/$defs/m~0n"},"z":{"$ref":"#/$defs/sp%20ace"}}})",
     R"({"x":1,"y":"a","z":0})",
     {"/x: expected string, got integer", "/y: expected integer, got string",
      "/z: expected boolean, got integer"}},
    {"RefIntoAnArrayElement", R"({"prefixItems":[{"type":"string"}],"items":{"$ref":"#/prefixItems/0"}})",
     R"(["a","b",3])", {"/2: expected string, got integer"}},
    {"RefAppliesAlongsideItsSiblings", R"({"$defs":{"s":{"type":"string"}},"$ref":"#/$defs/s","maxLength":2})",
     R"("abc")", {"must be at most 2 characters long"}},

    // boolean schemas, annotations, unknown keywords
    {"TrueAcceptsAnything", "true", R"({"a":[1]})", {}},
    {"FalseRejectsEverything", "false", "null", {"is not allowed"}},
    {"FalseAsAPropertySchemaForbidsIt", R"({"properties":{"a":false}})", R"({"a":1})",
     {"/a: is not allowed"}},
    {"AnnotationsConstrainNothing",
     R"({"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://example.com/s",
         "$comment":"c","title":"t","description":"d","default":5,"examples":[1],"deprecated":true,
         "readOnly":true,"writeOnly":true,"contentMediaType":"text/plain","contentEncoding":"base64",
         "contentSchema":{"type":"object"},"format":"email"})",
     R"("not an email")", {}},
    {"UnknownKeywordsAreIgnored", R"({"x-vendor":{"type":"string"},"nullable":false})", "null", {}},

    // everything at once
    {"CollectsEveryError",
     R"({"type":"object","properties":{"a":{"type":"integer","maximum":7},"b":{"type":"array","items":{"type":"string"}}},"required":["c"]})",
     R"({"a":9,"b":["x",1,2]})",
     {"/a: must be <= 7", "/b/1: expected string, got integer", "/b/2: expected string, got integer",
      "/c: is required"}},
};

class ValidateKeyword : public testing::TestWithParam<keyword_case> {};

TEST_P(ValidateKeyword, ReportsExactlyTheExpectedErrors) {
  const auto& c = GetParam();
  const schema_validator validator(json::parse(c.schema));
  EXPECT_EQ(validator.unsupported_keywords(), std::vector<std::string>{});
  EXPECT_EQ(errors_of(validator, json::parse(c.instance)), c.errors)
      << "schema " << c.schema << "\ninstance " << c.instance;
}

INSTANTIATE_TEST_SUITE_P(Table, ValidateKeyword, testing::ValuesIn(keyword_cases),
                         [](const auto& info) { return std::string(info.param.name); });

// --- validation errors --------------------------------------------------------------------------

TEST(ValidationError, ToStringIsPointerColonMessageOrTheMessageAloneAtTheRoot) {
  EXPECT_EQ((mcp::validation_error{"/days", "must be <= 7"}.to_string()), "/days: must be <= 7");
  EXPECT_EQ((mcp::validation_error{"", "is not allowed"}.to_string()), "is not allowed");
}

TEST(SchemaValidator, CopiesShareTheCompiledSchema) {
  const schema_validator original(json::parse(R"({"type":"string"})"));
  const schema_validator copy = original;  // NOLINT(performance-unnecessary-copy-initialization)
  EXPECT_EQ(errors_of(copy, json::value(1)), std::vector<std::string>{"expected string, got integer"});
  EXPECT_TRUE(original.validate(json::value("x")).empty());
}

// --- malformed schemas ----------------------------------------------------------------------------

/// The message of the mcp::invalid_argument that compiling `schema` throws.
std::string compile_error(std::string_view schema) {
  try {
    schema_validator validator(json::parse(schema));
  } catch (const mcp::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(SchemaValidatorCompile, RejectsAnInvalidRegularExpression) {
  EXPECT_EQ(compile_error(R"({"properties":{"a":{"pattern":"(["}}})").rfind(
                "/properties/a/pattern: invalid regular expression ([: ", 0),
            0u);
  EXPECT_EQ(compile_error(R"js({"patternProperties":{"a)":{}}})js").rfind(
                "/patternProperties/a): invalid regular expression a): ", 0),
            0u);
}

// Found by fuzz/fuzz_schema_validator.cpp: a count beyond size_t was
// converted to it (undefined behaviour).
TEST(SchemaValidatorCompile, ACountNoInstanceCanReachMeansTheLargest) {
  const mcp::schema_validator v(json::parse(R"({"maxLength": 3e65, "minItems": 0, "maxProperties": 1e300})"));
  EXPECT_TRUE(v.validate(json::parse(R"("abc")")).empty());
  const mcp::schema_validator at_least(json::parse(R"({"minLength": 1e30})"));
  EXPECT_EQ(at_least.validate(json::parse(R"("abc")")).size(), 1u);
}

TEST(SchemaValidatorCompile, RejectsAReferenceThatDoesNotResolve) {
  EXPECT_EQ(compile_error(R"({"$ref":"#/$defs/missing"})"),
            R"(/$ref: cannot resolve "#/$defs/missing": nothing is there)");
  EXPECT_EQ(compile_error(R"({"items":{"$ref":"#/items/9"}})"),
            R"(/items/$ref: cannot resolve "#/items/9": nothing is there)");
  EXPECT_EQ(compile_error(R"({"$ref":"https://example.com/other.json#/a"})"),
            R"(/$ref: cannot resolve "https://example.com/other.json#/a": only references into this document (#...) are supported)");
  EXPECT_EQ(compile_error(R"({"$ref":"#node"})"),
            R"(/$ref: cannot resolve "#node": anchors are not supported)");
  EXPECT_EQ(compile_error(R"({"$ref":"#/a~2"})"),
            R"(/$ref: cannot resolve "#/a~2": not a JSON pointer)");
  EXPECT_EQ(compile_error(R"({"$ref":"#/a%2"})"),
            R"(/$ref: cannot resolve "#/a%2": not a JSON pointer)");
  EXPECT_EQ(compile_error(R"({"$defs":{"n":5},"$ref":"#/$defs/n"})"),
            "/$defs/n: a schema must be an object or a boolean");
}

TEST(SchemaValidatorCompile, RejectsARefCycleThatNeverReachesTheInstance) {
  EXPECT_EQ(compile_error(R"({"$ref":"#"})"),
            "$ref cycle that never reaches a part of the instance");
  EXPECT_EQ(compile_error(R"({"anyOf":[{"type":"string"},{"$ref":"#"}]})"),
            "$ref cycle that never reaches a part of the instance");
  EXPECT_EQ(compile_error(R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"})"),
            "/$defs/a: $ref cycle that never reaches a part of the instance");
  // Through properties or items, a cycle consumes the instance and is fine.
  EXPECT_EQ(compile_error(R"({"properties":{"next":{"$ref":"#"}}})"), "(no exception)");
}

TEST(SchemaValidatorCompile, RejectsKeywordValuesOfTheWrongShape) {
  EXPECT_EQ(compile_error("5"), "a schema must be an object or a boolean");
  EXPECT_EQ(compile_error(R"({"properties":{"a":5}})"),
            "/properties/a: a schema must be an object or a boolean");
  EXPECT_EQ(compile_error(R"({"type":"int"})"), R"(/type: unknown type "int")");
  EXPECT_EQ(compile_error(R"({"type":[]})"), "/type: must be a type name or a non-empty array of them");
  EXPECT_EQ(compile_error(R"({"minimum":"1"})"), "/minimum: must be a number");
  EXPECT_EQ(compile_error(R"({"multipleOf":0})"), "/multipleOf: must be greater than 0");
  EXPECT_EQ(compile_error(R"({"minLength":-1})"), "/minLength: must be a non-negative integer");
  EXPECT_EQ(compile_error(R"({"maxItems":1.5})"), "/maxItems: must be a non-negative integer");
  EXPECT_EQ(compile_error(R"({"required":"a"})"), "/required: must be an array of strings");
  EXPECT_EQ(compile_error(R"({"enum":"a"})"), "/enum: must be an array");
  EXPECT_EQ(compile_error(R"({"allOf":[]})"), "/allOf: must be a non-empty array of schemas");
  EXPECT_EQ(compile_error(R"({"uniqueItems":1})"), "/uniqueItems: must be a boolean");
  EXPECT_EQ(compile_error(R"({"items":[{}],"prefixItems":[{}]})"),
            "/items: an array of schemas (draft-07) cannot be combined with prefixItems");
}

// --- unsupported keywords ------------------------------------------------------------------------

TEST(SchemaValidatorUnsupported, ListsEachUnsupportedKeywordWithItsSchemaPath) {
  const schema_validator validator(json::parse(R"({
    "properties": {"a": {"unevaluatedProperties": false}},
    "unevaluatedItems": false,
    "$anchor": "top",
    "$dynamicAnchor": "meta",
    "$defs": {"r": {"$dynamicRef": "#meta"}},
    "allOf": [{"$ref": "#/$defs/r"}],
    "$recursiveRef": "#",
    "$recursiveAnchor": true,
    "exclusiveMinimum": true,
    "items": {"$id": "https://example.com/item"}
  })"));
  EXPECT_EQ(validator.unsupported_keywords(),
            (std::vector<std::string>{"/properties/a/unevaluatedProperties", "/unevaluatedItems",
                                      "/$anchor", "/$dynamicAnchor", "/$defs/r/$dynamicRef",
                                      "/$recursiveRef", "/$recursiveAnchor", "/exclusiveMinimum",
                                      "/items/$id"}));
}

TEST(SchemaValidatorUnsupported, SkipsThemWhenValidating) {
  const schema_validator validator(
      json::parse(R"({"properties":{"a":{"type":"string"}},"unevaluatedProperties":false})"));
  EXPECT_EQ(errors_of(validator, json::parse(R"({"a":"x","b":1})")), std::vector<std::string>{});
  EXPECT_EQ(errors_of(validator, json::parse(R"({"a":1})")),
            std::vector<std::string>{"/a: expected string, got integer"});
}

TEST(SchemaValidatorUnsupported, IgnoresDefinitionsThatNothingReferences) {
  const schema_validator validator(
      json::parse(R"({"$id":"https://example.com/root","$defs":{"unused":{"unevaluatedProperties":false}}})"));
  EXPECT_TRUE(validator.unsupported_keywords().empty());
}

// --- regular expressions on hostile input --------------------------------------------------------

TEST(SchemaValidatorPattern, AVeryLongStringDoesNotExhaustTheStack) {
  // std::regex in libstdc++ overflows the stack here; the validator must not.
  const schema_validator validator(json::parse(R"({"pattern":"^[a-z]+$"})"));
  std::string text(200'000, 'a');
  EXPECT_TRUE(validator.validate(json::value(text)).empty());
  text += '1';
  EXPECT_EQ(errors_of(validator, json::value(text)),
            std::vector<std::string>{"must match pattern ^[a-z]+$"});
}

TEST(SchemaValidatorPattern, APathologicalPatternFailsTheValueInsteadOfHanging) {
  const schema_validator validator(json::parse(R"({"pattern":"^(a+)+$"})"));
  EXPECT_EQ(errors_of(validator, json::value("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!")),
            std::vector<std::string>{"is too complex to match against pattern ^(a+)+$"});
}

// --- schemas real peers send ---------------------------------------------------------------------

json::value read_fixture(const std::string& name) {
  std::ifstream file(std::string(CADUCEUS_JSON_FIXTURES) + "/" + name);
  std::stringstream text;
  text << file.rdbuf();
  return json::parse(text.str());
}

TEST(SchemaValidatorInterop, CompilesEveryToolSchemaOfTheEverythingServer) {
  const auto tools = read_fixture("everything_server_tools.json").at("tools").as_array();
  ASSERT_GE(tools.size(), 10u);
  for (const auto& tool : tools) {
    SCOPED_TRACE(json::serialize(tool.at("name")));
    for (const auto* which : {"inputSchema", "outputSchema"}) {
      const auto* schema = tool.as_object().if_contains(which);
      if (schema == nullptr) continue;
      const schema_validator validator(*schema);
      EXPECT_EQ(validator.unsupported_keywords(), std::vector<std::string>{});
      // An empty object is missing exactly the required properties.
      std::vector<std::string> missing;
      if (const auto* required = schema->as_object().if_contains("required"))
        for (const auto& name : required->as_array())
          missing.push_back("/" + std::string(name.as_string()) + ": is required");
      EXPECT_EQ(errors_of(validator, json::object{}), missing);
    }
  }
}

TEST(SchemaValidatorInterop, ValidatesArgumentsAsTheEverythingServerMeansThem) {
  const auto tools = read_fixture("everything_server_tools.json");
  std::map<std::string, json::value> input_schemas;
  for (const auto& tool : tools.at("tools").as_array())
    input_schemas[std::string(tool.at("name").as_string())] = tool.at("inputSchema");
  const auto check = [&](const std::string& tool, std::string_view arguments) {
    return errors_of(schema_validator(input_schemas.at(tool)), json::parse(arguments));
  };
  EXPECT_EQ(check("echo", R"({"message":"hi"})"), std::vector<std::string>{});
  EXPECT_EQ(check("echo", R"({"message":5})"),
            std::vector<std::string>{"/message: expected string, got integer"});
  EXPECT_EQ(check("get-sum", R"({"a":1,"b":2.5})"), std::vector<std::string>{});
  EXPECT_EQ(check("get-sum", R"({"a":"1"})"),
            (std::vector<std::string>{"/a: expected number, got string", "/b: is required"}));
  EXPECT_EQ(check("get-resource-links", R"({"count":11})"),
            std::vector<std::string>{"/count: must be <= 10"});
  EXPECT_EQ(check("get-annotated-message", R"({"messageType":"fatal"})"),
            std::vector<std::string>{R"(/messageType: must be one of ["error", "success", "debug"])"});
  EXPECT_EQ(check("gzip-file-as-resource", R"({"data":"not a uri"})"), std::vector<std::string>{})
      << "format is an annotation";
}

TEST(SchemaValidatorInterop, ValidatesAPydanticStyleSchema) {
  // What Python's pydantic emits: $defs and $ref, nullable as anyOf with null, titles.
  const schema_validator validator(json::parse(R"({
    "$defs": {
      "Address": {
        "properties": {"street": {"title": "Street", "type": "string"},
                       "zip": {"anyOf": [{"type": "string", "pattern": "^[0-9]{5}$"}, {"type": "null"}],
                               "default": null, "title": "Zip"}},
        "required": ["street"], "title": "Address", "type": "object"
      }
    },
    "properties": {"address": {"$ref": "#/$defs/Address"},
                   "tags": {"items": {"type": "string"}, "title": "Tags", "type": "array"}},
    "required": ["address"], "title": "OrderArgs", "type": "object"
  })"));
  EXPECT_TRUE(validator.unsupported_keywords().empty());
  EXPECT_EQ(errors_of(validator, json::parse(R"({"address":{"street":"s","zip":null}})")),
            std::vector<std::string>{});
  EXPECT_EQ(errors_of(validator, json::parse(R"({"address":{"zip":"1234"},"tags":[1]})")),
            (std::vector<std::string>{"/address/zip: must match at least one schema in anyOf",
                                      "/address/street: is required",
                                      "/tags/0: expected string, got integer"}));
}

TEST(SchemaValidatorInterop, ValidatesAZodStyleSchema) {
  // What the TypeScript SDK's zod conversion emits: draft-07, additionalProperties false.
  const schema_validator validator(json::parse(R"({
    "type": "object",
    "properties": {"name": {"type": "string", "minLength": 1},
                   "count": {"type": "integer", "exclusiveMinimum": 0, "maximum": 9007199254740991},
                   "mode": {"type": "string", "enum": ["fast", "slow"]}},
    "required": ["name"],
    "additionalProperties": false,
    "$schema": "http://json-schema.org/draft-07/schema#"
  })"));
  EXPECT_TRUE(validator.unsupported_keywords().empty());
  EXPECT_EQ(errors_of(validator, json::parse(R"({"name":"","count":0,"mode":"x","extra":1})")),
            (std::vector<std::string>{"/name: must be at least 1 character long",
                                      "/count: must be > 0",
                                      R"(/mode: must be one of ["fast", "slow"])",
                                      "/extra: is not allowed"}));
}

// --- agreement with schema_of and from_json -------------------------------------------------------

template <class T>
std::vector<std::string> derived_schema_errors(const T& value) {
  return errors_of(schema_validator(mcp::schema_of<T>()), mcp::to_json_value(value));
}

TEST(ValidatorAndConversionAgree, WhatToJsonValueWritesMatchesSchemaOf) {
  EXPECT_EQ(derived_schema_errors(weather::forecast_args{"Oslo", weather::units::imperial, 7}),
            std::vector<std::string>{});
  const shop::order order{"ABC-42",
                          {"1 Main St", "Springfield", std::nullopt},
                          {{"pen", 2, 1.25}, {"ink", 4294967295u, 7.5}},
                          {{"channel", "web"}},
                          std::int64_t{-5},
                          true,
                          std::vector<std::string>{},
                          json::parse(R"([null])")};
  EXPECT_EQ(derived_schema_errors(order), std::vector<std::string>{});
  EXPECT_EQ(derived_schema_errors(shop::comment{{0, ""}, std::string(280, 'x')}),
            std::vector<std::string>{});
  EXPECT_EQ(derived_schema_errors(std::vector<shop::line_item>{{"a", 0, -1}}),
            std::vector<std::string>{});
  EXPECT_EQ(derived_schema_errors(std::map<std::string, std::variant<std::int64_t, double>>{
                {"i", std::int64_t{3}}, {"d", 3.0}}),
            std::vector<std::string>{})
      << "3.0 is both alternatives: the union is anyOf, not oneOf";
  EXPECT_EQ(derived_schema_errors(std::uint8_t{255}), std::vector<std::string>{});
}

struct disagreement_case {
  const char* input;
  const char* pointer;
};

template <class T>
void expect_same_pointer(const disagreement_case& c) {
  SCOPED_TRACE(c.input);
  const auto input = json::parse(c.input);
  std::string conversion_pointer = "(no error)";
  try {
    (void)mcp::from_json<T>(input);
  } catch (const mcp::conversion_error& e) {
    conversion_pointer = e.pointer();
  }
  EXPECT_EQ(conversion_pointer, c.pointer);
  std::vector<std::string> validator_pointers;
  for (const auto& e : schema_validator(mcp::schema_of<T>()).validate(input))
    validator_pointers.push_back(e.pointer);
  EXPECT_EQ(validator_pointers, std::vector<std::string>{c.pointer});
}

// (A uint32 beyond its range is caught by conversion only: derived schemas
// state the range of 8- and 16-bit types alone. ConversionErrors covers it.)
TEST(ValidatorAndConversionAgree, BadInputsFailAtTheSamePointer) {
  const disagreement_case order_cases[] = {
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"unit_price":1}],"reference":5})",
       "/items/0/name"},
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"name":"a","unit_price":1,"quantity":-1}],"reference":5})",
       "/items/0/quantity"},
      {R"({"id":"ABC-1","ship_to":{"street":5,"city":"c"},"items":[{"name":"a","unit_price":1}],"reference":5})",
       "/ship_to/street"},
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"name":"a","unit_price":1}],"reference":true})",
       "/reference"},
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"name":"a","unit_price":1}],"reference":5,"tags":{"a":1}})",
       "/tags/a"},
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"name":"a","unit_price":1}],"reference":5,"gift":"yes"})",
       "/gift"},
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":[{"name":"a","unit_price":1}],"reference":5,"notes":[1]})",
       "/notes/0"},
      {R"({"id":"ABC-1","ship_to":{"street":"s","city":"c"},"items":"x","reference":5})", "/items"},
  };
  for (const auto& c : order_cases) expect_same_pointer<shop::order>(c);

  const disagreement_case forecast_cases[] = {
      {R"({"unit":"metric"})", "/city"},
      {R"({"city":"Oslo","unit":"kelvin"})", "/unit"},
      {R"({"city":"Oslo","days":2.5})", "/days"},
      {R"({"city":"Oslo","days":"2"})", "/days"},
      {"[]", ""},
  };
  for (const auto& c : forecast_cases) expect_same_pointer<weather::forecast_args>(c);
}

TEST(ValidatorAndConversionAgree, SharedMistakesGetTheSameWords) {
  const auto schema = mcp::schema_of<weather::forecast_args>();
  for (const auto* input : {R"({"city":"Oslo","unit":"kelvin"})", R"({"city":"Oslo","days":2.5})",
                            R"({"days":3})"}) {
    SCOPED_TRACE(input);
    std::string conversion_message;
    try {
      (void)mcp::from_json<weather::forecast_args>(json::parse(input));
    } catch (const mcp::conversion_error& e) {
      conversion_message = e.what();
    }
    EXPECT_EQ(errors_of(schema_validator(schema), json::parse(input)),
              std::vector<std::string>{conversion_message});
  }
}

}  // namespace
