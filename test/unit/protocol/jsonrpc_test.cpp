// Behaviour of the JSON-RPC layer: parse_frame / classify turn one frame of
// text into messages or into the error replies that bad input deserves, and
// serialize / serialize_batch write messages back.

#include <mcp/protocol/jsonrpc.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace {

using namespace mcp;
namespace json = boost::json;
using namespace std::string_literals;

// --- helpers ----------------------------------------------------------------

// The single item of a frame that must not be a batch.
frame_item single(std::string_view text) {
  parsed_frame frame = parse_frame(text);
  EXPECT_FALSE(frame.batch) << text;
  EXPECT_EQ(frame.items.size(), 1u) << text;
  if (frame.items.empty()) return invalid_message{make_error({}, 0, "no item")};
  return frame.items.front();
}

template <class T>
T as(const frame_item& item) {
  const auto* msg = std::get_if<message>(&item);
  if (!msg) {
    ADD_FAILURE() << "expected a message, got an invalid_message: "
                  << std::get<invalid_message>(item).reply.error.message;
    return T{};
  }
  const auto* typed = std::get_if<T>(msg);
  if (!typed) {
    ADD_FAILURE() << "message has the wrong alternative (index " << msg->index() << ")";
    return T{};
  }
  return *typed;
}

// Asserts that `item` is an invalid message whose reply has `code` and `id`.
void expect_invalid(const frame_item& item, int code, const std::optional<request_id>& id,
                    std::string_view context = {}) {
  const auto* bad = std::get_if<invalid_message>(&item);
  ASSERT_NE(bad, nullptr) << "expected an invalid message for: " << context;
  EXPECT_EQ(bad->reply.error.code, code) << context << " -> " << bad->reply.error.message;
  EXPECT_EQ(bad->reply.id, id) << context;
  EXPECT_FALSE(bad->reply.error.message.empty()) << context;
  EXPECT_TRUE(bad->reply.error.data.is_null()) << context;
}

void expect_single_invalid(std::string_view text, int code, const std::optional<request_id>& id) {
  expect_invalid(single(text), code, id, text);
}

json::object parse_object(const std::string& text) {
  json::value v = json::parse(text);
  EXPECT_TRUE(v.is_object()) << text;
  return v.is_object() ? v.get_object() : json::object{};
}

std::string nested_arrays(std::size_t depth) {
  return std::string(depth, '[') + std::string(depth, ']');
}

// --- requests -----------------------------------------------------------------

TEST(ParseFrame, RequestWithIntegerIdKeepsIdMethodAndParams) {
  auto req = as<request>(single(
      R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":1}}})"));
  EXPECT_EQ(req.id, request_id{std::int64_t{7}});
  EXPECT_EQ(req.method, "tools/call");
  EXPECT_EQ(req.params, (json::object{{"name", "add"}, {"arguments", json::object{{"a", 1}}}}));
}

TEST(ParseFrame, RequestWithStringIdKeepsStringExactly) {
  for (std::string id : {"abc"s, ""s, "1"s, " padded "s, "ünï©ødé-✓"s, "with \"quotes\""s}) {
    json::object msg{{"jsonrpc", "2.0"}, {"id", id}, {"method", "ping"}};
    auto req = as<request>(single(json::serialize(msg)));
    ASSERT_TRUE(std::holds_alternative<std::string>(req.id)) << id;
    EXPECT_EQ(std::get<std::string>(req.id), id);
  }
}

TEST(ParseFrame, NumericLookingStringIdStaysAString) {
  auto req = as<request>(single(R"({"jsonrpc":"2.0","id":"42","method":"ping"})"));
  EXPECT_EQ(req.id, request_id{"42"s});
  EXPECT_NE(req.id, request_id{std::int64_t{42}});
}

TEST(ParseFrame, RequestIdsAtInt64ExtremesAreEchoedExactly) {
  constexpr auto max = std::numeric_limits<std::int64_t>::max();
  constexpr auto min = std::numeric_limits<std::int64_t>::min();
  for (std::int64_t id : {max, min, std::int64_t{0}, std::int64_t{-1}}) {
    const auto text = R"({"jsonrpc":"2.0","method":"ping","id":)" + std::to_string(id) + "}";
    auto req = as<request>(single(text));
    EXPECT_EQ(req.id, request_id{id}) << text;
    // and the echo in a reply is the same number
    auto reply = parse_object(serialize(response{req.id, json::object{}}));
    ASSERT_TRUE(reply.at("id").is_int64());
    EXPECT_EQ(reply.at("id").get_int64(), id);
  }
}

TEST(ParseFrame, RequestIdAboveInt64MaxIsInvalidRequestWithNullId) {
  // 2^63 fits a uint64 but not the int64 a request_id holds.
  expect_single_invalid(R"({"jsonrpc":"2.0","method":"ping","id":9223372036854775808})",
                        errc::invalid_request, std::nullopt);
  expect_single_invalid(R"({"jsonrpc":"2.0","method":"ping","id":18446744073709551615})",
                        errc::invalid_request, std::nullopt);
  // beyond uint64 the parser yields a double, which is no id either
  expect_single_invalid(R"({"jsonrpc":"2.0","method":"ping","id":18446744073709551616})",
                        errc::invalid_request, std::nullopt);
}

TEST(Classify, Uint64IdThatFitsInt64IsAccepted) {
  // The parser stores such numbers as int64, but a value built in code may be uint64.
  json::object obj{{"jsonrpc", "2.0"}, {"method", "ping"}};
  obj["id"] = std::uint64_t{9223372036854775807ull};
  ASSERT_TRUE(obj["id"].is_uint64());
  auto req = as<request>(classify(obj));
  EXPECT_EQ(req.id, request_id{std::numeric_limits<std::int64_t>::max()});

  obj["id"] = std::uint64_t{5};
  EXPECT_EQ(as<request>(classify(obj)).id, request_id{std::int64_t{5}});
}

TEST(Classify, Uint64IdAboveInt64MaxIsRejected) {
  json::object obj{{"jsonrpc", "2.0"}, {"method", "ping"}};
  obj["id"] = std::uint64_t{9223372036854775808ull};
  expect_invalid(classify(obj), errc::invalid_request, std::nullopt);
}

TEST(Classify, NonObjectValueIsInvalidRequestWithNullId) {
  for (const json::value& v : {json::value(42), json::value("x"), json::value(nullptr),
                               json::value(json::array{}), json::value(true)})
    expect_invalid(classify(v), errc::invalid_request, std::nullopt, json::serialize(v));
}

TEST(ParseFrame, RequestWithoutParamsHasEmptyParams) {
  auto req = as<request>(single(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})"));
  EXPECT_TRUE(req.params.empty());
}

TEST(ParseFrame, RequestWithEmptyParamsObjectIsAccepted) {
  auto req = as<request>(single(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}})"));
  EXPECT_TRUE(req.params.empty());
}

TEST(ParseFrame, KeyOrderDoesNotMatter) {
  auto req = as<request>(single(R"({"params":{"x":1},"method":"m","id":"q","jsonrpc":"2.0"})"));
  EXPECT_EQ(req.id, request_id{"q"s});
  EXPECT_EQ(req.method, "m");
  EXPECT_EQ(req.params, (json::object{{"x", 1}}));
}

TEST(ParseFrame, SurroundingWhitespaceIsAccepted) {
  auto req = as<request>(single(" \t\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n "));
  EXPECT_EQ(req.method, "ping");
}

TEST(ParseFrame, UnknownMembersAreIgnored) {
  auto req = as<request>(single(R"({"jsonrpc":"2.0","id":1,"method":"ping","extra":[1,2]})"));
  EXPECT_EQ(req.method, "ping");
}

TEST(ParseFrame, ValidMultibyteUtf8IsAccepted) {
  auto n = as<notification>(
      single("{\"jsonrpc\":\"2.0\",\"method\":\"caf\xC3\xA9\",\"params\":{\"s\":\"\xF0\x9F\x98\x80\"}}"));
  EXPECT_EQ(n.method, "caf\xC3\xA9");
  EXPECT_EQ(n.params.at("s").get_string(), "\xF0\x9F\x98\x80");
}

// --- notifications ----------------------------------------------------------------

TEST(ParseFrame, MessageWithoutIdIsNotification) {
  auto n = as<notification>(single(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_EQ(n.method, "notifications/initialized");
  EXPECT_TRUE(n.params.empty());
}

TEST(ParseFrame, NotificationKeepsParams) {
  auto n = as<notification>(single(
      R"({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5}})"));
  EXPECT_EQ(n.params.at("progressToken").get_string(), "t");
  EXPECT_DOUBLE_EQ(n.params.at("progress").get_double(), 0.5);
}

// --- responses ----------------------------------------------------------------------

TEST(ParseFrame, ResponseKeepsIdAndResult) {
  auto r = as<response>(single(R"({"jsonrpc":"2.0","id":3,"result":{"tools":[]}})"));
  EXPECT_EQ(r.id, request_id{std::int64_t{3}});
  EXPECT_EQ(r.result, (json::object{{"tools", json::array{}}}));

  auto s = as<response>(single(R"({"jsonrpc":"2.0","id":"abc","result":{}})"));
  EXPECT_EQ(s.id, request_id{"abc"s});
}

TEST(ParseFrame, ResponseResultMayBeAnyJsonValue) {
  for (std::string result : {"null"s, "0"s, "\"s\""s, "[1]"s, "false"s}) {
    auto r = as<response>(single(R"({"jsonrpc":"2.0","id":1,"result":)" + result + "}"));
    EXPECT_EQ(r.result, json::parse(result)) << result;
  }
}

TEST(ParseFrame, ResultWithNullIdIsInvalidRequest) {
  expect_single_invalid(R"({"jsonrpc":"2.0","id":null,"result":{}})", errc::invalid_request,
                        std::nullopt);
}

TEST(ParseFrame, ResponseWithoutIdIsInvalidRequest) {
  expect_single_invalid(R"({"jsonrpc":"2.0","result":{}})", errc::invalid_request, std::nullopt);
  expect_single_invalid(R"({"jsonrpc":"2.0","error":{"code":-1,"message":"m"}})",
                        errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, ResponseWithMalformedIdIsInvalidRequestWithNullId) {
  expect_single_invalid(R"({"jsonrpc":"2.0","id":true,"result":{}})", errc::invalid_request,
                        std::nullopt);
  expect_single_invalid(R"({"jsonrpc":"2.0","id":1.5,"error":{"code":-1,"message":"m"}})",
                        errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, ErrorResponseKeepsIdCodeMessageAndData) {
  auto e = as<error_response>(single(
      R"({"jsonrpc":"2.0","id":9,"error":{"code":-32601,"message":"Method not found","data":{"m":"x"}}})"));
  EXPECT_EQ(e.id, std::optional<request_id>{std::int64_t{9}});
  EXPECT_EQ(e.error.code, errc::method_not_found);
  EXPECT_EQ(e.error.message, "Method not found");
  EXPECT_EQ(e.error.data, (json::object{{"m", "x"}}));
}

TEST(ParseFrame, ErrorResponseWithNullIdIsAccepted) {
  auto e = as<error_response>(
      single(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})"));
  EXPECT_FALSE(e.id.has_value());
  EXPECT_EQ(e.error.code, errc::parse_error);
  EXPECT_TRUE(e.error.data.is_null());
}

TEST(ParseFrame, ErrorResponseWithoutDataHasNullData) {
  auto e = as<error_response>(
      single(R"({"jsonrpc":"2.0","id":"a","error":{"code":1,"message":""}})"));
  EXPECT_EQ(e.id, std::optional<request_id>{"a"s});
  EXPECT_EQ(e.error.code, 1);
  EXPECT_EQ(e.error.message, "");
  EXPECT_TRUE(e.error.data.is_null());
}

TEST(ParseFrame, BothResultAndErrorIsInvalidRequestKeepingId) {
  expect_single_invalid(
      R"({"jsonrpc":"2.0","id":4,"result":{},"error":{"code":-1,"message":"m"}})",
      errc::invalid_request, request_id{std::int64_t{4}});
  // a null error member still counts as present
  expect_single_invalid(R"({"jsonrpc":"2.0","id":"k","result":{},"error":null})",
                        errc::invalid_request, request_id{"k"s});
}

TEST(ParseFrame, NeitherMethodNorResultNorErrorIsInvalidRequestKeepingId) {
  expect_single_invalid(R"({"jsonrpc":"2.0","id":4})", errc::invalid_request,
                        request_id{std::int64_t{4}});
  expect_single_invalid(R"({"jsonrpc":"2.0"})", errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, MalformedErrorObjectIsInvalidRequestKeepingId) {
  const request_id id{std::int64_t{2}};
  for (std::string error : {
           R"({"message":"no code"})"s,
           R"({"code":-1})"s,
           R"({"code":"-1","message":"code is a string"})"s,
           R"({"code":-1.5,"message":"code is fractional"})"s,
           R"({"code":null,"message":"code is null"})"s,
           R"({"code":-1,"message":5})"s,
           R"({"code":-1,"message":null})"s,
           R"("just a string")"s,
           R"(-32600)"s,
           R"([-1,"m"])"s,
           R"(null)"s,
       })
    expect_single_invalid(R"({"jsonrpc":"2.0","id":2,"error":)" + error + "}",
                          errc::invalid_request, id);
}

TEST(ParseFrame, ErrorCodeOutsideIntRangeIsInvalidRequest) {
  // 2^32 - 32700 would wrap to -32700 if narrowed to int: the code must be
  // rejected, not silently turned into a different one.
  expect_single_invalid(R"({"jsonrpc":"2.0","id":2,"error":{"code":4294934596,"message":"m"}})",
                        errc::invalid_request, request_id{std::int64_t{2}});
  expect_single_invalid(
      R"({"jsonrpc":"2.0","id":2,"error":{"code":-9223372036854775808,"message":"m"}})",
      errc::invalid_request, request_id{std::int64_t{2}});
  auto e = as<error_response>(single(
      R"({"jsonrpc":"2.0","id":2,"error":{"code":-2147483648,"message":"int min is fine"}})"));
  EXPECT_EQ(e.error.code, std::numeric_limits<int>::min());
}

// --- malformed text ----------------------------------------------------------------

TEST(ParseFrame, TextThatIsNotJsonIsParseErrorWithNullId) {
  for (std::string text : {""s, " "s, "{"s, "not json"s, R"({"jsonrpc":"2.0",})"s,
                           R"({'jsonrpc':'2.0'})"s, R"({"a":1} trailing)"s, R"({"a":1}{"b":2})"s,
                           R"({"a":1 /* comment */})"s, R"([1,2,])"s, "nan"s,
                           std::string("{\"a\":\0}", 7)}) {
    const auto item = single(text);
    expect_invalid(item, errc::parse_error, std::nullopt, text);
  }
}

// Found by fuzz/fuzz_request_state.cpp: Boost.JSON read 1e400 as infinity
// and wrote it back as `Infinity`, which is not JSON (src/protocol/finite_json.hpp).
TEST(ParseFrame, ANumberNoDoubleHoldsIsParseError) {
  for (std::string number : {"1e400"s, "-41e400"s, "1" + std::string(400, '0') + ".5"s})
    expect_single_invalid(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"n":)" + number + "}}",
                          errc::parse_error, std::nullopt);
  // The largest and smallest doubles, and what rounds to zero, are numbers.
  for (std::string number : {"1.7976931348623157e308"s, "-1.7976931348623157e308"s, "1e-400"s, "18446744073709551616"s}) {
    const auto item = single(R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"n":)" + number + "}}");
    ASSERT_TRUE(std::holds_alternative<message>(item)) << number;
  }
}

// Found by fuzz/fuzz_request_state.cpp: Boost.JSON 1.81 reads some decimals
// one unit in the last place off, even the shortest text it wrote itself,
// so a double moved on every trip through text (src/protocol/finite_json.hpp).
TEST(ParseJson, DecimalsAreReadCorrectlyRoundedAndSurviveRoundTrips) {
  boost::system::error_code ec;
  const auto long_decimal = parse_json("1.66666666666666666666666666666666", ec);
  ASSERT_FALSE(ec);
  EXPECT_EQ(long_decimal.as_double(), 1.6666666666666667);  // Boost.JSON alone: 1.6666666666666665
  for (double d : {1.6666666666666667, 1.6666666666666665, 0.1, 812.5, 2.2250738585072014e-308, 5e-324,
                   1.7976931348623157e308, -123456.789e-7}) {
    json::value value = d;
    for (int trip = 0; trip < 3; ++trip) {
      value = parse_json(json::serialize(value), ec);
      ASSERT_FALSE(ec);
    }
    EXPECT_EQ(value.as_double(), d) << json::serialize(json::value(d));
  }
}

TEST(ParseFrame, ParseErrorDoesNotRecoverIdFromBrokenText) {
  // The id is readable to a human, but the text is not JSON: the reply id is null.
  expect_single_invalid(R"({"jsonrpc":"2.0","id":5,"method":"ping")", errc::parse_error,
                        std::nullopt);
}

TEST(ParseFrame, InvalidUtf8InsideStringIsParseError) {
  for (std::string bad : {"\xFF"s, "\xC0\xAF"s /* overlong '/' */, "\xE2\x82"s /* truncated */,
                          "\xED\xA0\x80"s /* UTF-16 surrogate */, "\x80"s /* lone continuation */,
                          "\xF5\x80\x80\x80"s /* beyond U+10FFFF */}) {
    expect_single_invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p" + bad + "\"}",
                          errc::parse_error, std::nullopt);
    expect_single_invalid("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"k" + bad +
                              "\":1}}",
                          errc::parse_error, std::nullopt);
  }
}

TEST(ParseFrame, NonObjectIsInvalidRequestWithNullId) {
  for (std::string text : {"42"s, R"("x")"s, "null"s, "true"s, "3.5"s})
    expect_single_invalid(text, errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, WrongJsonrpcVersionKeepsId) {
  expect_single_invalid(R"({"jsonrpc":"1.0","id":7,"method":"ping"})", errc::invalid_request,
                        request_id{std::int64_t{7}});
  expect_single_invalid(R"({"jsonrpc":2.0,"id":"s","method":"ping"})", errc::invalid_request,
                        request_id{"s"s});
  expect_single_invalid(R"({"jsonrpc":"2.0 ","id":7,"method":"ping"})", errc::invalid_request,
                        request_id{std::int64_t{7}});
  expect_single_invalid(R"({"jsonrpc":null,"id":7,"result":{}})", errc::invalid_request,
                        request_id{std::int64_t{7}});
}

TEST(ParseFrame, MissingJsonrpcKeepsId) {
  expect_single_invalid(R"({"id":8,"method":"ping"})", errc::invalid_request,
                        request_id{std::int64_t{8}});
  expect_single_invalid(R"({"method":"notifications/initialized"})", errc::invalid_request,
                        std::nullopt);
}

TEST(ParseFrame, WrongJsonrpcVersionWithUnreadableIdHasNullId) {
  expect_single_invalid(R"({"jsonrpc":"1.0","id":true,"method":"ping"})", errc::invalid_request,
                        std::nullopt);
  expect_single_invalid(R"({"jsonrpc":"1.0","id":null,"method":"ping"})", errc::invalid_request,
                        std::nullopt);
}

TEST(ParseFrame, MethodNotAStringIsInvalidRequestKeepingId) {
  for (std::string method : {"42"s, "null"s, "{}"s, "[\"ping\"]"s, "true"s})
    expect_single_invalid(R"({"jsonrpc":"2.0","id":3,"method":)" + method + "}",
                          errc::invalid_request, request_id{std::int64_t{3}});
  expect_single_invalid(R"({"jsonrpc":"2.0","method":7})", errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, IdOfWrongTypeIsInvalidRequestWithNullId) {
  for (std::string id : {"true"s, "false"s, "{}"s, R"({"a":1})"s, "[]"s, "[1]"s, "1.5"s, "1.0"s,
                         "1e3"s})
    expect_single_invalid(R"({"jsonrpc":"2.0","method":"ping","id":)" + id + "}",
                          errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, NullIdOnRequestIsInvalidRequestWithNullId) {
  expect_single_invalid(R"({"jsonrpc":"2.0","method":"ping","id":null})", errc::invalid_request,
                        std::nullopt);
}

TEST(ParseFrame, RequestCarryingResultOrErrorIsInvalidRequestKeepingId) {
  expect_single_invalid(R"({"jsonrpc":"2.0","id":1,"method":"ping","result":{}})",
                        errc::invalid_request, request_id{std::int64_t{1}});
  expect_single_invalid(
      R"({"jsonrpc":"2.0","id":1,"method":"ping","error":{"code":-1,"message":"m"}})",
      errc::invalid_request, request_id{std::int64_t{1}});
}

TEST(ParseFrame, ParamsThatAreNotStructuredAreInvalidRequestKeepingId) {
  for (std::string params : {R"("x")"s, "42"s, "true"s, "null"s, "1.5"s})
    expect_single_invalid(R"({"jsonrpc":"2.0","id":"r","method":"m","params":)" + params + "}",
                          errc::invalid_request, request_id{"r"s});
}

TEST(ParseFrame, ParamsArrayOnRequestIsInvalidParamsKeepingId) {
  expect_single_invalid(R"({"jsonrpc":"2.0","id":11,"method":"tools/list","params":[1,2]})",
                        errc::invalid_params, request_id{std::int64_t{11}});
  expect_single_invalid(R"({"jsonrpc":"2.0","id":"x","method":"tools/list","params":[]})",
                        errc::invalid_params, request_id{"x"s});
}

TEST(ParseFrame, BadParamsOnNotificationIsInvalidRequestWithNullId) {
  expect_single_invalid(R"({"jsonrpc":"2.0","method":"n","params":[1]})", errc::invalid_request,
                        std::nullopt);
  expect_single_invalid(R"({"jsonrpc":"2.0","method":"n","params":"s"})", errc::invalid_request,
                        std::nullopt);
}

// --- batches ----------------------------------------------------------------------

TEST(ParseFrame, EmptyBatchIsSingleInvalidRequestNotABatch) {
  for (std::string text : {"[]"s, " [ \n ] "s}) {
    parsed_frame frame = parse_frame(text);
    EXPECT_FALSE(frame.batch) << text;
    ASSERT_EQ(frame.items.size(), 1u) << text;
    expect_invalid(frame.items[0], errc::invalid_request, std::nullopt, text);
  }
}

TEST(ParseFrame, BatchWithMixedElementsHasPerElementResultsInOrder) {
  parsed_frame frame = parse_frame(R"([1, {"jsonrpc":"2.0","method":"ping","id":1}])");
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 2u);
  expect_invalid(frame.items[0], errc::invalid_request, std::nullopt);
  auto req = as<request>(frame.items[1]);
  EXPECT_EQ(req.id, request_id{std::int64_t{1}});
  EXPECT_EQ(req.method, "ping");
}

TEST(ParseFrame, BatchOfOneIsStillABatch) {
  parsed_frame frame = parse_frame(R"([{"jsonrpc":"2.0","method":"ping","id":"a"}])");
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 1u);
  EXPECT_EQ(as<request>(frame.items[0]).id, request_id{"a"s});
}

TEST(ParseFrame, BatchMixesEveryMessageKind) {
  parsed_frame frame = parse_frame(R"([
    {"jsonrpc":"2.0","method":"tools/list","id":1},
    {"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}},
    {"jsonrpc":"2.0","id":2,"result":{}},
    {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}
  ])");
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 4u);
  EXPECT_EQ(as<request>(frame.items[0]).method, "tools/list");
  EXPECT_EQ(as<notification>(frame.items[1]).method, "notifications/cancelled");
  EXPECT_EQ(as<response>(frame.items[2]).id, request_id{std::int64_t{2}});
  EXPECT_FALSE(as<error_response>(frame.items[3]).id.has_value());
}

TEST(ParseFrame, InvalidBatchElementsKeepTheirOwnIdsAndCodes) {
  parsed_frame frame = parse_frame(R"([
    {"jsonrpc":"1.0","id":"a","method":"x"},
    {"jsonrpc":"2.0","id":5,"method":"m","params":[1]},
    {"jsonrpc":"2.0","id":true,"method":"m"},
    "str",
    []
  ])");
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 5u);
  expect_invalid(frame.items[0], errc::invalid_request, request_id{"a"s});
  expect_invalid(frame.items[1], errc::invalid_params, request_id{std::int64_t{5}});
  expect_invalid(frame.items[2], errc::invalid_request, std::nullopt);
  expect_invalid(frame.items[3], errc::invalid_request, std::nullopt);
  expect_invalid(frame.items[4], errc::invalid_request, std::nullopt);  // nested empty batch
}

TEST(ParseFrame, NestedBatchIsNotFlattened) {
  parsed_frame frame = parse_frame(R"([[{"jsonrpc":"2.0","method":"ping","id":1}]])");
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 1u);
  expect_invalid(frame.items[0], errc::invalid_request, std::nullopt);
}

TEST(ParseFrame, BatchWithBrokenJsonIsOneParseError) {
  expect_single_invalid(R"([{"jsonrpc":"2.0","method":"ping","id":1},)", errc::parse_error,
                        std::nullopt);
}

// --- nesting depth ----------------------------------------------------------------

TEST(ParseFrame, NestingBeyondDepthLimitIsParseError) {
  // Depth 129 of arrays: one past the limit of 128.
  expect_single_invalid(nested_arrays(129), errc::parse_error, std::nullopt);
  // inside params, the whole message counts
  std::string deep = R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"x":)" + nested_arrays(200) +
                     "}}";
  expect_single_invalid(deep, errc::parse_error, std::nullopt);
}

TEST(ParseFrame, HostileNestingDoesNotCrash) {
  expect_single_invalid(nested_arrays(1'000'000), errc::parse_error, std::nullopt);
  expect_single_invalid(std::string(1'000'000, '['), errc::parse_error, std::nullopt);
  std::string objects;
  for (int i = 0; i < 100'000; ++i) objects += R"({"a":)";
  expect_single_invalid(objects, errc::parse_error, std::nullopt);
}

TEST(ParseFrame, NestingAtDepthLimitIsParsed) {
  // 128 nested arrays are accepted as JSON: a batch whose one element is
  // not a message (an array).
  parsed_frame frame = parse_frame(nested_arrays(128));
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 1u);
  expect_invalid(frame.items[0], errc::invalid_request, std::nullopt);

  // A message whose params nest to exactly 128 levels in total is a request.
  std::string value = nested_arrays(126);  // object(1) + params(2) + 126 arrays = 128
  auto req = as<request>(
      single(R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"x":)" + value + "}}"));
  EXPECT_EQ(req.method, "m");
}

// --- serialization ------------------------------------------------------------------

TEST(Serialize, RequestWritesJsonrpcIdMethodAndParams) {
  auto out = parse_object(
      serialize(request{std::int64_t{5}, "tools/call", json::object{{"name", "add"}}}));
  EXPECT_EQ(out.size(), 4u);
  EXPECT_EQ(out.at("jsonrpc"), "2.0");
  EXPECT_EQ(out.at("id"), 5);
  EXPECT_EQ(out.at("method"), "tools/call");
  EXPECT_EQ(out.at("params"), (json::object{{"name", "add"}}));
}

TEST(Serialize, RequestWithoutParamsOmitsParams) {
  auto out = parse_object(serialize(request{"id-1"s, "ping", {}}));
  EXPECT_FALSE(out.contains("params"));
  EXPECT_EQ(out.at("id"), "id-1");
  EXPECT_EQ(out.at("method"), "ping");
}

TEST(Serialize, StringIdStaysAStringOnTheWire) {
  auto out = parse_object(serialize(request{"7"s, "ping", {}}));
  ASSERT_TRUE(out.at("id").is_string());
  EXPECT_EQ(out.at("id").get_string(), "7");
}

TEST(Serialize, NotificationHasNoIdAndOmitsEmptyParams) {
  auto out = parse_object(serialize(notification{"notifications/initialized", {}}));
  EXPECT_EQ(out.size(), 2u);
  EXPECT_EQ(out.at("jsonrpc"), "2.0");
  EXPECT_EQ(out.at("method"), "notifications/initialized");
  EXPECT_FALSE(out.contains("id"));
  EXPECT_FALSE(out.contains("params"));

  auto with = parse_object(serialize(notification{"n", json::object{{"k", 1}}}));
  EXPECT_EQ(with.at("params"), (json::object{{"k", 1}}));
}

TEST(Serialize, ResponseWritesIdAndResultEvenWhenResultIsNull) {
  auto out = parse_object(serialize(response{std::int64_t{1}, json::object{{"ok", true}}}));
  EXPECT_EQ(out.size(), 3u);
  EXPECT_EQ(out.at("id"), 1);
  EXPECT_EQ(out.at("result"), (json::object{{"ok", true}}));
  EXPECT_FALSE(out.contains("error"));

  auto null_result = parse_object(serialize(response{"x"s, nullptr}));
  ASSERT_TRUE(null_result.contains("result"));
  EXPECT_TRUE(null_result.at("result").is_null());
}

TEST(Serialize, ErrorResponseWithoutIdWritesNullId) {
  auto out = parse_object(serialize(make_error(std::nullopt, errc::parse_error, "Parse error")));
  ASSERT_TRUE(out.contains("id"));
  EXPECT_TRUE(out.at("id").is_null());
  EXPECT_FALSE(out.contains("result"));
  const auto& error = out.at("error").as_object();
  EXPECT_EQ(error.at("code"), errc::parse_error);
  EXPECT_EQ(error.at("message"), "Parse error");
}

TEST(Serialize, ErrorDataIsWrittenOnlyWhenNonNull) {
  auto without = parse_object(serialize(make_error(request_id{std::int64_t{1}}, -1, "m")));
  EXPECT_FALSE(without.at("error").as_object().contains("data"));
  EXPECT_EQ(without.at("error").as_object().size(), 2u);

  for (const json::value& data :
       {json::value(json::object{{"detail", "x"}}), json::value(0), json::value(false),
        json::value(""), json::value(json::array{})}) {
    auto with = parse_object(serialize(make_error(request_id{"i"s}, -1, "m", data)));
    ASSERT_TRUE(with.at("error").as_object().contains("data")) << json::serialize(data);
    EXPECT_EQ(with.at("error").as_object().at("data"), data);
  }
}

TEST(Serialize, MakeErrorDefaultsToNoData) {
  auto e = make_error(request_id{std::int64_t{3}}, errc::internal_error, "boom");
  EXPECT_EQ(e.id, std::optional<request_id>{std::int64_t{3}});
  EXPECT_EQ(e.error.code, errc::internal_error);
  EXPECT_EQ(e.error.message, "boom");
  EXPECT_TRUE(e.error.data.is_null());
}

TEST(Serialize, EveryMessageKindRoundTripsThroughParseFrame) {
  const std::vector<message> messages{
      request{std::int64_t{42}, "tools/call", json::object{{"a", json::array{1, "two", nullptr}}}},
      request{"req-\"1\"\n"s, "ping", {}},
      request{std::numeric_limits<std::int64_t>::min(), "m", {}},
      notification{"notifications/progress", json::object{{"progress", 1}}},
      notification{"notifications/initialized", {}},
      response{std::int64_t{0}, json::object{{"content", json::array{}}}},
      response{"s"s, nullptr},
      error_response{request_id{std::int64_t{-7}}, rpc_error{-32601, "Method not found", nullptr}},
      error_response{std::nullopt, rpc_error{-32700, "Parse error", json::object{{"pos", 3}}}},
  };
  for (const auto& m : messages) {
    const std::string text = serialize(m);
    SCOPED_TRACE(text);
    const frame_item item = single(text);
    ASSERT_TRUE(std::holds_alternative<message>(item));
    const auto& back = std::get<message>(item);
    ASSERT_EQ(back.index(), m.index());
    EXPECT_EQ(json::value(to_json(back)), json::value(to_json(m)));
  }
}

TEST(Serialize, OutputIsOneLineEvenWithNewlinesInStrings) {
  // stdio framing depends on a serialized message never holding a raw newline.
  const std::string text = serialize(
      request{"a\nb"s, "m\r\n", json::object{{"text", "line1\nline2\r\n\u2028"}}});
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_EQ(text.find('\r'), std::string::npos);
  auto out = parse_object(text);
  EXPECT_EQ(out.at("id"), "a\nb");
  EXPECT_EQ(out.at("params").as_object().at("text"), "line1\nline2\r\n\u2028");
}

TEST(Serialize, BatchIsAJsonArrayInOrder) {
  const std::string text = serialize_batch({
      response{std::int64_t{1}, json::object{}},
      make_error(request_id{"b"s}, errc::method_not_found, "Method not found"),
      make_error(std::nullopt, errc::invalid_request, "Invalid Request"),
  });
  json::value v = json::parse(text);
  ASSERT_TRUE(v.is_array());
  const auto& arr = v.get_array();
  ASSERT_EQ(arr.size(), 3u);
  EXPECT_EQ(arr[0].at("id"), 1);
  EXPECT_TRUE(arr[0].as_object().contains("result"));
  EXPECT_EQ(arr[1].at("id"), "b");
  EXPECT_EQ(arr[1].at("error").at("code"), errc::method_not_found);
  EXPECT_TRUE(arr[2].at("id").is_null());
  for (const auto& element : arr) EXPECT_EQ(element.at("jsonrpc"), "2.0");

  // and parse_frame reads it back as a batch of the same messages
  parsed_frame frame = parse_frame(text);
  EXPECT_TRUE(frame.batch);
  ASSERT_EQ(frame.items.size(), 3u);
  EXPECT_EQ(as<response>(frame.items[0]).id, request_id{std::int64_t{1}});
  EXPECT_EQ(as<error_response>(frame.items[1]).error.code, errc::method_not_found);
  EXPECT_FALSE(as<error_response>(frame.items[2]).id.has_value());
}

TEST(Serialize, EmptyBatchIsAnEmptyArray) {
  json::value v = json::parse(serialize_batch({}));
  ASSERT_TRUE(v.is_array());
  EXPECT_TRUE(v.get_array().empty());
}

TEST(Serialize, RequestIdToJsonAndToString) {
  EXPECT_EQ(to_json(request_id{std::int64_t{-3}}), json::value(-3));
  EXPECT_TRUE(to_json(request_id{std::int64_t{-3}}).is_int64());
  EXPECT_EQ(to_json(request_id{"x"s}), json::value("x"));
  EXPECT_EQ(to_string(request_id{std::int64_t{-3}}), "-3");
  EXPECT_EQ(to_string(request_id{std::numeric_limits<std::int64_t>::max()}),
            "9223372036854775807");
  EXPECT_EQ(to_string(request_id{"abc"s}), "abc");
}

TEST(Serialize, InvalidMessageReplyIsSerializable) {
  // The engine answers a bad frame by serializing the reply parse_frame built.
  const auto item = single(R"({"jsonrpc":"1.0","id":"z","method":"m"})");
  const auto& reply = std::get<invalid_message>(item).reply;
  auto out = parse_object(serialize(reply));
  EXPECT_EQ(out.at("id"), "z");
  EXPECT_EQ(out.at("error").at("code"), errc::invalid_request);
  EXPECT_FALSE(out.at("error").as_object().contains("data"));
}

}  // namespace
