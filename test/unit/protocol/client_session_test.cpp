// The client's decisions about a connection and a modern request, as data:
// which version it probes and initializes with, what a discover result and a
// -32022 refusal come to, and the rounds of a multi-round request.

#include "json_text.hpp"
#include "../../src/protocol/client_session.hpp"

#include <mcp/protocol/envelope.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <vector>

namespace mcp::detail {
namespace {

using test::object;  // json_text.hpp

using v = protocol_version;

TEST(VersionChoice, ProbesWithTheNewestModernAndInitializesWithTheNewestLegacy) {
  struct row {
    std::vector<protocol_version> ours;
    std::optional<protocol_version> probe;
    std::optional<protocol_version> initialize;
  };
  const row rows[] = {
      {{v::v2024_11_05, v::v2025_06_18, v::v2026_07_28}, v::v2026_07_28, v::v2025_06_18},
      {{v::v2025_11_25, v::v2025_03_26}, std::nullopt, v::v2025_11_25},
      {{v::v2026_07_28}, v::v2026_07_28, std::nullopt},
      {{}, std::nullopt, std::nullopt},
  };
  for (const auto& r : rows) {
    const version_choice choice(r.ours);
    EXPECT_EQ(choice.newest_modern(), r.probe);
    EXPECT_EQ(choice.newest_legacy(), r.initialize);
  }
}

TEST(VersionChoice, ADiscoverResultOpensTheNewestSharedModernVersion) {
  const std::vector ours{v::v2025_11_25, v::v2026_07_28};
  const version_choice choice(ours);
  const auto found = choice.read_discover_result(object(R"({
    "supportedVersions": ["2025-11-25", "2026-07-28", "2099-01-01"],
    "capabilities": {"tools": {"listChanged": true}},
    "instructions": "be brief",
    "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "2.0"}}})"));
  ASSERT_TRUE(found);
  EXPECT_EQ(found->version, v::v2026_07_28);  // a legacy version listed there does not count
  EXPECT_EQ(json::serialize(found->capabilities), R"({"tools":{"listChanged":true}})");
  EXPECT_EQ(found->server_info.name, "srv");
  EXPECT_EQ(found->server_info.version, "2.0");
  EXPECT_EQ(found->instructions, "be brief");

  const auto bare = choice.read_discover_result(object(R"({"supportedVersions": ["2026-07-28"]})"));
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->server_info.name, "unknown");
  EXPECT_FALSE(bare->instructions);

  // Nothing shared: the client falls back to initialize.
  EXPECT_FALSE(choice.read_discover_result(object(R"({"supportedVersions": ["2025-11-25"]})")));
  EXPECT_FALSE(choice.read_discover_result(object(R"({"supportedVersions": "2026-07-28"})")));
  EXPECT_FALSE(choice.read_discover_result(object(R"({})")));
  // Not a DiscoverResult (a version that is not a string): the same.
  EXPECT_FALSE(choice.read_discover_result(object(R"({"supportedVersions": ["2026-07-28", 7]})")));
}

TEST(VersionChoice, ARefusalNamesTheVersionToTryInstead) {
  const std::vector ours{v::v2025_11_25, v::v2026_07_28};
  const version_choice choice(ours);
  const auto refusal = [](int code, std::string_view data) {
    return rpc_error{code, "Unsupported protocol version", json::parse(data)};
  };
  struct row {
    rpc_error error;
    std::optional<protocol_version> instead;
  };
  const row rows[] = {
      {refusal(errc::unsupported_protocol_version, R"({"supported":["2026-07-28"],"requested":"2027-01-01"})"),
       v::v2026_07_28},
      // Over HTTP the server's data comes wrapped, in a 400.
      {refusal(errc::unsupported_protocol_version, R"({"httpStatus":400,"serverData":{"supported":["2026-07-28"]}})"),
       v::v2026_07_28},
      {refusal(errc::unsupported_protocol_version, R"({"supported":["2025-11-25"]})"), std::nullopt},
      {refusal(errc::unsupported_protocol_version, R"(null)"), std::nullopt},
      {refusal(errc::invalid_params, R"({"supported":["2026-07-28"]})"), std::nullopt},
  };
  for (const auto& r : rows) EXPECT_EQ(choice.offered_instead(r.error), r.instead) << json::serialize(r.error.data);
}

TEST(RequestRounds, AResultWithoutInputRequiredIsComplete) {
  request_rounds rounds("tools/call");
  EXPECT_FALSE(rounds.input_asked(object(R"({"content":[]})")));
  EXPECT_FALSE(rounds.input_asked(object(R"({"resultType":"complete","content":[]})")));
}

TEST(RequestRounds, InputRequestsComeInTheOrderAsked) {
  request_rounds rounds("tools/call");
  const auto asked = rounds.input_asked(object(R"({"resultType":"input_required",
    "inputRequests": {
      "b": {"method": "elicitation/create", "params": {"message": "name?"}},
      "a": {"method": "roots/list"}},
    "requestState": "s1"})"));
  ASSERT_TRUE(asked);
  ASSERT_EQ(asked->requests.size(), 2u);
  EXPECT_EQ(asked->requests[0].key, "b");
  EXPECT_EQ(asked->requests[0].req.method, "elicitation/create");
  EXPECT_EQ(json::serialize(asked->requests[0].req.params), R"({"message":"name?"})");
  EXPECT_EQ(asked->requests[1].key, "a");
  EXPECT_EQ(asked->requests[1].req.method, "roots/list");
  EXPECT_TRUE(asked->requests[1].req.params.empty());
  EXPECT_EQ(asked->request_state, "s1");
}

TEST(RequestRounds, AMalformedEntryIsRefusedBeforeAnythingIsAnswered) {
  request_rounds rounds("tools/call");
  try {
    rounds.input_asked(object(R"({"resultType":"input_required",
      "inputRequests": {"ok": {"method": "roots/list"}, "bad": {"params": {}}}})"));
    FAIL() << "accepted";
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_params);
    EXPECT_STREQ(e.what(), "Malformed inputRequests entry bad");
  }
}

TEST(RequestRounds, TheNextRoundCarriesTheAnswersAndTheStateAndNothingOlder) {
  json::object params = object(R"({"name":"t","inputResponses":{"old":{}},"requestState":"s0"})");
  request_rounds::next_round(params, object(R"({"a":{"roots":[]}})"), "s1");
  EXPECT_EQ(json::serialize(params), R"({"name":"t","inputResponses":{"a":{"roots":[]}},"requestState":"s1"})");
  // No answers and no state: neither member is sent.
  request_rounds::next_round(params, {}, std::nullopt);
  EXPECT_EQ(json::serialize(params), R"({"name":"t"})");
}

TEST(RequestRounds, AServerThatKeepsAskingIsRefusedAtTheSixteenthRound) {
  request_rounds rounds("prompts/get");
  const auto again = object(R"({"resultType":"input_required","inputRequests":{}})");
  for (int i = 1; i < request_rounds::max_rounds; ++i) ASSERT_TRUE(rounds.input_asked(again));
  try {
    rounds.input_asked(again);
    FAIL() << "a 16th round was accepted";
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::internal_error);
    EXPECT_STREQ(e.what(), "the server asked for input 16 times for one prompts/get; giving up");
  }
}

TEST(ClientEnvelope, CarriesTheVersionInfoCapabilitiesAndLogLevel) {
  const implementation info{"cli", "1.0"};
  EXPECT_EQ(json::serialize(client_envelope(v::v2026_07_28, info, object(R"({"roots":{}})"), logging_level::warning)),
            R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28",)"
            R"("io.modelcontextprotocol/clientInfo":{"name":"cli","version":"1.0"},)"
            R"("io.modelcontextprotocol/clientCapabilities":{"roots":{}},)"
            R"("io.modelcontextprotocol/logLevel":"warning"})");
  const auto quiet = client_envelope(v::v2026_07_28, info, {}, std::nullopt);
  EXPECT_FALSE(quiet.contains("io.modelcontextprotocol/logLevel"));
  // What the server reads back is what was sent.
  json::object params{{"_meta", quiet}};
  const auto read = read_envelope(params);
  EXPECT_EQ(read.protocol_version, "2026-07-28");
  ASSERT_TRUE(read.client_info);
  EXPECT_EQ(read.client_info->name, "cli");
}

}  // namespace
}  // namespace mcp::detail
