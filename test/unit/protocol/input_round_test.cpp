// The rounds of a 2026-07-28 multi-round request, as data: what a retry
// brings, the InputRequiredResult that ends a round, and its requestState,
// which opens only for the same request and the same principal.

#include "json_text.hpp"
#include "../../src/protocol/input_round.hpp"
#include "../../src/protocol/modern_era.hpp"

#include <mcp/protocol/methods.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace mcp::detail {
namespace {

using namespace std::chrono_literals;

using test::object;  // json_text.hpp

const auto server = modern_server_info({"srv", "1.0"});

std::string refusal_of(const input_rounds& rounds, const request& req) {
  try {
    rounds.open(req, "alice");
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_params);
    return e.what();
  }
  return "opened";
}

TEST(InputRounds, OnlyMethodsThatAcceptInputReadWhatARetryBrings) {
  const input_rounds rounds("key", 60s);
  const request listing{request_id{1}, methods::tools_list, object(R"({"inputResponses":7})")};
  const auto plain = rounds.open(listing, "alice");
  EXPECT_FALSE(plain->accepts_input);

  const request call{request_id{2}, methods::tools_call, object(R"({"name":"t","inputResponses":{"k":{"action":"accept"}}})")};
  const auto round = rounds.open(call, "alice");
  EXPECT_TRUE(round->accepts_input);
  EXPECT_EQ(json::serialize(round->given), R"({"k":{"action":"accept"}})");
  EXPECT_TRUE(round->answers.empty());
}

TEST(InputRounds, MalformedInputsAreInvalidParams) {
  const input_rounds rounds("key", 60s);
  EXPECT_EQ(refusal_of(rounds, {request_id{1}, methods::tools_call, object(R"({"inputResponses":[]})")}),
            "Invalid params: /params/inputResponses must be an object");
  EXPECT_EQ(refusal_of(rounds, {request_id{1}, methods::tools_call, object(R"({"requestState":1})")}),
            "Invalid params: /params/requestState must be a string");
  EXPECT_EQ(refusal_of(rounds, {request_id{1}, methods::tools_call, object(R"({"requestState":"v1.x.y"})")}),
            "Invalid params: requestState is not valid for this request: altered, expired, or issued for "
            "another request or client");
}

TEST(InputRounds, ARoundEndsWithItsRequestsAndAStateOnlyWhenOneIsNeeded) {
  const input_rounds rounds("key", 60s);
  const request call{request_id{1}, methods::tools_call, object(R"({"name":"t"})")};
  input_round first;
  const auto asking = rounds.input_required(
      call, object(R"({"k":{"method":"elicitation/create","params":{}}})"), first, "alice", server);
  EXPECT_EQ(json::serialize(asking),
            R"({"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{}}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}}})");
  // Nothing asked: the state must go, and it carries the round's value.
  first.carried = "step 2";
  const auto waiting = rounds.input_required(call, {}, first, "alice", server);
  ASSERT_TRUE(waiting.contains("requestState"));
  EXPECT_FALSE(waiting.contains("inputRequests"));

  auto retry = call;
  retry.params["requestState"] = waiting.at("requestState");
  const auto next = rounds.open(retry, "alice");
  EXPECT_EQ(next->carried, json::value("step 2"));
  // Another principal, or another request, cannot use it.
  EXPECT_THROW(rounds.open(retry, "mallory"), protocol_error);
  auto other = retry;
  other.params["name"] = "u";
  EXPECT_THROW(rounds.open(other, "alice"), protocol_error);
}

TEST(LegacyInput, ARevisionOrClientWithoutWhatARequestNeedsRefusesIt) {
  using v = protocol_version;
  struct row {
    std::string_view method;
    std::string_view params;
    protocol_version version;
    std::string_view capabilities;
    std::optional<std::string> refusal;
  };
  const row rows[] = {
      {methods::elicitation_create, R"({"mode":"form"})", v::v2025_06_18, R"({"elicitation":{}})", std::nullopt},
      {methods::elicitation_create, R"({})", v::v2025_03_26, R"({"elicitation":{}})",
       "elicitation needs protocol version 2025-06-18 or later"},
      {methods::elicitation_create, R"({"mode":"url"})", v::v2025_06_18, R"({"elicitation":{"url":{}}})",
       "URL elicitation needs protocol version 2025-11-25 or later"},
      {methods::elicitation_create, R"({"mode":"url"})", v::v2025_11_25, R"({"elicitation":{}})",
       "the client does not support URL elicitation"},
      {methods::elicitation_create, R"({"mode":"url"})", v::v2025_11_25, R"({"elicitation":{"url":{}}})",
       std::nullopt},
      {methods::sampling_create_message, R"({})", v::v2024_11_05, R"({"roots":{}})",
       "the client does not support sampling"},
      {methods::roots_list, R"({})", v::v2024_11_05, R"({"roots":true})", "the client does not support roots"},
      {methods::roots_list, R"({})", v::v2024_11_05, R"({"roots":{}})", std::nullopt},
  };
  for (const auto& r : rows)
    EXPECT_EQ(legacy_input_refusal(r.method, object(r.params), dialect_of(r.version), object(r.capabilities)),
              r.refusal)
        << r.method << " " << r.params;
  EXPECT_TRUE(is_input_request(methods::roots_list));
  EXPECT_FALSE(is_input_request(methods::tools_call));
}

// An answer is taken only when it reads as its method's declared result.
TEST(InputAnswers, AnAnswerIsTakenOnlyInItsMethodsDeclaredShape) {
  struct row {
    std::string_view method;
    std::string_view answer;
    bool taken;
  };
  const row rows[] = {
      {methods::elicitation_create, R"({"action":"accept","content":{"name":"Ada"}})", true},
      {methods::elicitation_create, R"({"action":"decline","content":null})", true},
      {methods::elicitation_create, R"({"action":"maybe"})", false},
      {methods::elicitation_create, R"({"action":"accept","content":"Ada"})", false},
      {methods::sampling_create_message, R"({"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"})",
       true},
      {methods::sampling_create_message, R"({"role":"assistant","content":[],"model":"m"})", true},
      {methods::sampling_create_message, R"({"role":"assistant","content":"hi","model":"m"})", false},
      {methods::sampling_create_message, R"({"role":"assistant","content":{"type":"text","text":"hi"}})", false},
      {methods::roots_list, R"({"roots":[{"uri":"file:///tmp","name":"tmp"}]})", true},
      {methods::roots_list, R"({"roots":[]})", true},
      {methods::roots_list, R"({"roots":[{"name":"no uri"}]})", false},
      {methods::roots_list, R"({})", false},
      {methods::roots_list, R"([])", false},
      {methods::tools_call, R"({"content":[]})", false},
  };
  for (const auto& r : rows)
    EXPECT_EQ(answers_input(r.method, json::parse(r.answer)), r.taken) << r.method << " " << r.answer;
}

}  // namespace
}  // namespace mcp::detail
