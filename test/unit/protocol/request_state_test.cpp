// The `requestState` of 2026-07-28 multi-round requests (basic/patterns/mrtr,
// "Server Requirements" 4-5): a state comes back only unaltered, before it
// expires, on the request and for the principal it was sealed for.

#include "protocol/request_state.hpp"

#include <mcp/base64.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <chrono>
#include <string>

namespace mcp::detail {
namespace {

using namespace std::chrono_literals;
using std::chrono::system_clock;

const system_clock::time_point sealed_at = system_clock::time_point{} + std::chrono::hours(24 * 365 * 56);

const json::object call_params = {{"name", "book_flight"},
                                  {"arguments", {{"from", "CDG"}, {"to", "NRT"}, {"seats", 2}}}};

std::string binding_of(const json::object& params, std::string_view principal = "alice") {
  return request_binding("tools/call", params, principal);
}

request_state_payload sample_payload() {
  return {json::object{{"confirm", {{"action", "accept"}, {"content", {{"ok", true}}}}}},
          json::value{{"step", 2}, {"quote", 812.5}}};
}

// A state in the documented format, for a payload the codec did not write.
std::string forge(std::string_view key, std::string_view payload_json) {
  std::string state = "v1." + mcp::base64url_encode(payload_json);
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(state.data()),
       state.size(), mac, &size);
  return state + "." + mcp::base64url_encode(std::string(reinterpret_cast<const char*>(mac), size));
}

TEST(RequestState, RoundTripsAnswersAndCarried) {
  const request_state_codec codec("secret", 600s);
  const auto binding = binding_of(call_params);
  const auto state = codec.seal(sample_payload(), binding, sealed_at);
  EXPECT_TRUE(state.starts_with("v1."));
  EXPECT_EQ(state.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_."),
            std::string::npos);

  const auto opened = codec.open(state, binding, sealed_at + 10s);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->answers, sample_payload().answers);
  EXPECT_EQ(opened->carried, sample_payload().carried);
}

// Found by fuzz/fuzz_request_state.cpp: a carried double came back one unit
// in the last place off (Boost.JSON 1.81's reading; finite_json.hpp).
TEST(RequestState, CarriedDoublesComeBackExactly) {
  const request_state_codec codec("secret", 600s);
  const request_state_payload payload{json::object{{"n", 1.6666666666666665}}, json::value(1.6666666666666667)};
  const auto opened = codec.open(codec.seal(payload, "b", sealed_at), "b", sealed_at);
  ASSERT_TRUE(opened);
  EXPECT_EQ(opened->answers.at("n").as_double(), 1.6666666666666665);
  EXPECT_EQ(opened->carried.as_double(), 1.6666666666666667);
}

TEST(RequestState, RoundTripsEmptyAnswersAndNullCarried) {
  const request_state_codec codec("secret", 600s);
  const auto opened = codec.open(codec.seal({}, "b", sealed_at), "b", sealed_at);
  ASSERT_TRUE(opened);
  EXPECT_TRUE(opened->answers.empty());
  EXPECT_TRUE(opened->carried.is_null());
}

TEST(RequestState, RefusesAnyAlteredCharacter) {
  const request_state_codec codec("secret", 600s);
  const auto state = codec.seal(sample_payload(), "b", sealed_at);
  for (std::size_t i = 0; i < state.size(); ++i) {
    for (const char replacement : {'A', 'B', '.', '-'}) {
      if (state[i] == replacement) continue;
      auto altered = state;
      altered[i] = replacement;
      EXPECT_FALSE(codec.open(altered, "b", sealed_at)) << "character " << i << " -> " << replacement;
    }
  }
  EXPECT_FALSE(codec.open(state.substr(0, state.size() - 1), "b", sealed_at));
  EXPECT_FALSE(codec.open(state + "A", "b", sealed_at));
  EXPECT_TRUE(codec.open(state, "b", sealed_at));
}

TEST(RequestState, RefusesStateSealedWithAnotherKey) {
  const request_state_codec ours("secret", 600s);
  const request_state_codec theirs("other secret", 600s);
  const request_state_codec random_key("", 600s);
  const auto state = theirs.seal(sample_payload(), "b", sealed_at);
  EXPECT_FALSE(ours.open(state, "b", sealed_at));
  EXPECT_FALSE(random_key.open(state, "b", sealed_at));
  EXPECT_FALSE(ours.open(random_key.seal(sample_payload(), "b", sealed_at), "b", sealed_at));
}

TEST(RequestState, RandomKeyIsOnePerProcess) {
  const request_state_codec first("", 600s);
  const request_state_codec second("", 600s);
  EXPECT_TRUE(second.open(first.seal(sample_payload(), "b", sealed_at), "b", sealed_at));
}

TEST(RequestState, RefusesExpiredState) {
  const request_state_codec codec("secret", 60s);
  const auto state = codec.seal(sample_payload(), "b", sealed_at);
  EXPECT_TRUE(codec.open(state, "b", sealed_at + 59s));
  EXPECT_FALSE(codec.open(state, "b", sealed_at + 60s));
  EXPECT_FALSE(codec.open(state, "b", sealed_at + 24h));
  // The expiry was fixed when sealing: a codec with a longer TTL does not extend it.
  EXPECT_FALSE(request_state_codec("secret", 3600s).open(state, "b", sealed_at + 61s));
}

TEST(RequestState, RefusesStateOfAnotherRequestOrPrincipal) {
  const request_state_codec codec("secret", 600s);
  const auto state = codec.seal(sample_payload(), binding_of(call_params), sealed_at);
  ASSERT_TRUE(codec.open(state, binding_of(call_params), sealed_at));

  EXPECT_FALSE(codec.open(state, request_binding("prompts/get", call_params, "alice"), sealed_at));
  EXPECT_FALSE(codec.open(state, binding_of(call_params, "mallory"), sealed_at));
  EXPECT_FALSE(codec.open(state, binding_of(call_params, ""), sealed_at));
  auto other_seats = call_params;
  other_seats["arguments"].as_object()["seats"] = 3;
  EXPECT_FALSE(codec.open(state, binding_of(other_seats), sealed_at));
  auto other_tool = call_params;
  other_tool["name"] = "cancel_flight";
  EXPECT_FALSE(codec.open(state, binding_of(other_tool), sealed_at));
  auto extra_param = call_params;
  extra_param["task"] = json::object{};
  EXPECT_FALSE(codec.open(state, binding_of(extra_param), sealed_at));
}

TEST(RequestStateBinding, IgnoresMemberOrderAndRoundFields) {
  const auto reordered = json::parse(R"({"arguments": {"seats": 2, "to": "NRT", "from": "CDG"}, "name": "book_flight"})");
  EXPECT_EQ(binding_of(reordered.as_object()), binding_of(call_params));

  auto retry = call_params;
  retry["_meta"] = json::object{{"progressToken", 7}, {"io.modelcontextprotocol/protocolVersion", "2026-07-28"}};
  retry["inputResponses"] = json::object{{"confirm", {{"action", "accept"}}}};
  retry["requestState"] = "v1.abc.def";
  EXPECT_EQ(binding_of(retry), binding_of(call_params));

  const request_state_codec codec("secret", 600s);
  EXPECT_TRUE(codec.open(codec.seal(sample_payload(), binding_of(call_params), sealed_at), binding_of(retry), sealed_at));
}

TEST(RequestStateBinding, CountsNestedFieldsAndArrayOrder) {
  // Only the round's own top-level fields are left out: the same names inside
  // the arguments are the tool's business.
  auto nested = call_params;
  nested["arguments"].as_object()["_meta"] = "x";
  EXPECT_NE(binding_of(nested), binding_of(call_params));

  const json::object ab{{"list", {1, 2}}};
  const json::object ba{{"list", {2, 1}}};
  EXPECT_NE(binding_of(ab), binding_of(ba));
  EXPECT_EQ(binding_of(ab).size(), 64u);  // hex SHA-256
}

TEST(RequestState, RefusesGarbageWithoutThrowing) {
  const request_state_codec codec("secret", 600s);
  const auto valid = codec.seal(sample_payload(), "b", sealed_at);
  const std::string garbage[] = {
      "",
      "v1",
      "v1.",
      "v1..",
      "v1...",
      "v2.x.y",
      "v1.x.y",
      "v1.x",
      "V1" + valid.substr(2),
      "v2" + valid.substr(2),
      " " + valid,
      valid + " ",
      "v1.!!!!.????",
      "v1.Zm9v=.Zm9v",
      std::string("v1.\0\xff", 5) + ".\n",
      "v1." + std::string(2 << 20, 'A') + ".AAAA",
      std::string(3 << 20, '.'),
  };
  for (const auto& state : garbage) {
    EXPECT_NO_THROW(EXPECT_FALSE(codec.open(state, "b", sealed_at)) << state.substr(0, 40));
  }
}

TEST(RequestState, RefusesWellSignedButMalformedPayload) {
  const request_state_codec codec("secret", 600s);
  const auto expires = std::to_string(
      std::chrono::duration_cast<std::chrono::milliseconds>((sealed_at + 60s).time_since_epoch()).count());
  const std::string good = R"({"binding":"b","expires":)" + expires + R"(,"answers":{},"carried":null})";
  ASSERT_TRUE(codec.open(forge("secret", good), "b", sealed_at));  // the forgery helper is right

  const std::string payloads[] = {
      "",
      "not json",
      "[1,2]",
      "{}",
      good.substr(0, good.size() - 1),
      R"({"binding":"b","expires":")" + expires + R"(","answers":{},"carried":null})",
      R"({"binding":"b","expires":)" + expires + R"(,"answers":[],"carried":null})",
      R"({"binding":"b","expires":)" + expires + R"(,"carried":null})",
      R"({"binding":"b","expires":)" + expires + R"(,"answers":{}})",
      R"({"binding":1,"expires":)" + expires + R"(,"answers":{},"carried":null})",
      R"({"binding":"b","expires":1.5e300,"answers":{},"carried":null})",
      R"({"binding":"b","expires":18446744073709551615,"answers":{},"carried":null})",
      std::string(100000, '[') + std::string(100000, ']'),
  };
  for (const auto& payload : payloads) {
    EXPECT_NO_THROW(EXPECT_FALSE(codec.open(forge("secret", payload), "b", sealed_at)) << payload.substr(0, 60));
  }
}

TEST(RequestState, RefusesStatesOverOneMebibyte) {
  const request_state_codec codec("secret", 600s);
  const request_state_payload small{{}, json::string(500'000, 'x')};
  EXPECT_TRUE(codec.open(codec.seal(small, "b", sealed_at), "b", sealed_at));
  const request_state_payload big{{}, json::string(800'000, 'x')};  // > 1 MiB once in base64
  const auto state = codec.seal(big, "b", sealed_at);
  EXPECT_GT(state.size(), std::size_t{1} << 20);
  EXPECT_FALSE(codec.open(state, "b", sealed_at));
}

TEST(RequestState, SealsOfDifferentPayloadsDiffer) {
  const request_state_codec codec("secret", 600s);
  auto other = sample_payload();
  other.answers["confirm"].as_object()["action"] = "decline";
  EXPECT_NE(codec.seal(sample_payload(), "b", sealed_at), codec.seal(other, "b", sealed_at));
  auto other_carried = sample_payload();
  other_carried.carried = 3;
  EXPECT_NE(codec.seal(sample_payload(), "b", sealed_at), codec.seal(other_carried, "b", sealed_at));
  EXPECT_NE(codec.seal(sample_payload(), "b", sealed_at), codec.seal(sample_payload(), "c", sealed_at));
  EXPECT_NE(codec.seal(sample_payload(), "b", sealed_at), codec.seal(sample_payload(), "b", sealed_at + 1s));
}

// Unpadded URL-safe base64 (RFC 4648 section 5), as the state is written in.
TEST(Base64Url, EncodesTheRfcVectorsWithoutPadding) {
  const std::pair<std::string_view, std::string_view> vectors[] = {
      {"", ""},         {"f", "Zg"},          {"fo", "Zm8"},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"}, {"foobar", "Zm9vYmFy"}, {"\xfb\xff", "-_8"},
  };
  for (const auto& [bytes, text] : vectors) {
    EXPECT_EQ(mcp::base64url_encode(bytes), text);
    EXPECT_EQ(mcp::base64url_decode(text), std::string(bytes)) << text;
  }
}

TEST(Base64Url, RoundTripsEveryByte) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes += static_cast<char>(i);
  for (std::size_t n = 0; n < 5; ++n) {
    const auto text = mcp::base64url_encode(bytes.substr(n));
    EXPECT_EQ(text.find_first_of("+/="), std::string::npos);
    EXPECT_EQ(mcp::base64url_decode(text), bytes.substr(n));
  }
}

TEST(Base64Url, RefusesWhatItWouldNotWrite) {
  for (const std::string_view text : {"+_8", "-/8", "Zg==", "Zg=", "Z", "Zm9vY", "Zh", "Zm9", "Zm!v", "Zm9v\n", " Zg"}) {
    EXPECT_FALSE(mcp::base64url_decode(text)) << text;
  }
}

}  // namespace
}  // namespace mcp::detail
