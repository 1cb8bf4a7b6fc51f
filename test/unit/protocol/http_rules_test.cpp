// MCP's rules of messages over HTTP (protocol/http_rules, http_client_rules):
// what a POST holds, the routing headers a client writes and a server
// checks, and the -32000 answers an HTTP client makes up. The bytes here are
// the ones peers see.

#include "../../src/protocol/http_client_rules.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <gtest/gtest.h>

namespace mcp::detail {
namespace {

using fields = std::vector<std::pair<std::string, std::string>>;

const boost::json::object& object_of(const boost::json::value& value) { return value.as_object(); }

TEST(HttpRules, SummaryNamesTheRequestsOfABody) {
  const auto body = boost::json::parse(
      R"([{"jsonrpc":"2.0","id":"x","method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/initialized"},
          {"jsonrpc":"2.0","id":9,"method":"initialize"},{"jsonrpc":"2.0","id":null,"method":"ping"}])");
  const auto summary = summarize(body);
  EXPECT_EQ(std::vector<std::string>(summary.request_ids.begin(), summary.request_ids.end()),
            (std::vector<std::string>{"\"x\"", "9"}));
  EXPECT_TRUE(summary.initialize);
}

TEST(HttpRules, ModernPostsAndUnknownVersions) {
  const auto enveloped = boost::json::parse(
      R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
  const auto plain = boost::json::parse(R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_TRUE(is_modern_post("", enveloped));
  EXPECT_FALSE(is_modern_post("", plain));
  EXPECT_FALSE(is_modern_post("2025-06-18", plain));
  EXPECT_TRUE(is_modern_post("2026-07-28", plain));
  EXPECT_FALSE(unknown_version_refusal(""));
  EXPECT_FALSE(unknown_version_refusal("2025-06-18"));
  EXPECT_EQ(unknown_version_refusal("1999-01-01"), "Bad Request: unsupported MCP-Protocol-Version 1999-01-01");
}

TEST(HttpRules, RoutingHeadersAreWrittenAndChecked) {
  const auto call = boost::json::parse(
      R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"héllo wörld","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
  const auto headers = routing_headers(object_of(call));
  ASSERT_EQ(headers, (fields{{"MCP-Protocol-Version", "2026-07-28"},
                             {"Mcp-Method", "tools/call"},
                             {"Mcp-Name", "=?base64?aMOpbGxvIHfDtnJsZA==?="}}));
  EXPECT_FALSE(check_routing_headers({headers[0].second, headers[1].second, headers[2].second}, object_of(call)));

  const auto wrong = check_routing_headers({"2026-07-28", "tools/list", headers[2].second}, object_of(call));
  ASSERT_TRUE(wrong);
  EXPECT_EQ(wrong->message, "Header mismatch: Mcp-Method header value 'tools/list' does not match body value 'tools/call'");
  EXPECT_EQ(boost::json::serialize(wrong->data),
            R"({"mismatch":{"header":"Mcp-Method","body":"tools/call","received":"tools/list"}})");

  // A client names the version of an envelope it writes as text (not in the params).
  const auto params = boost::json::parse(R"({"name":"héllo wörld"})");
  EXPECT_EQ(routing_headers("tools/call", object_of(params), "2026-07-28"), headers);
  EXPECT_EQ(routing_headers("tools/call", object_of(call).at("params").as_object(), {}), headers);

  const auto legacy = boost::json::parse(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x"}})");
  EXPECT_TRUE(routing_headers(object_of(legacy)).empty());
  EXPECT_TRUE(routing_headers("tools/call", object_of(legacy).at("params").as_object(), {}).empty());
  EXPECT_FALSE(check_routing_headers({}, object_of(legacy)));
}

TEST(HttpClientRules, OutgoingFramesSayWhatTheTransportActsOn) {
  const auto cancel = inspect_outgoing(
      R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"abc"}})");
  EXPECT_TRUE(cancel.requests.empty());
  EXPECT_EQ(cancel.cancelled, std::vector<std::string>{"\"abc\""});
  EXPECT_TRUE(inspect_outgoing(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").session_ready);

  const auto modern = inspect_outgoing(
      R"({"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"file:///a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}})");
  EXPECT_EQ(modern.routing_headers, (fields{{"MCP-Protocol-Version", "2026-07-28"},
                                            {"Mcp-Method", "resources/read"},
                                            {"Mcp-Name", "file:///a"}}));
  // Only a single request routes itself.
  const auto batch = inspect_outgoing(
      R"([{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}])");
  EXPECT_EQ(batch.requests.size(), 1u);
  EXPECT_TRUE(batch.routing_headers.empty());
  EXPECT_TRUE(inspect_outgoing("not json").requests.empty());
}

TEST(HttpClientRules, InboundFramesNameWhatTheyAnswer) {
  const auto batch = inspect_inbound(
      R"([{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}])");
  EXPECT_TRUE(batch.valid);
  EXPECT_EQ(batch.answered, std::vector<std::string>{"1"});
  EXPECT_FALSE(batch.error_without_id);
  // What was read is handed on: the client does not parse it again.
  ASSERT_TRUE(batch.parsed);
  EXPECT_EQ(batch.parsed->as_array().size(), 2u);
  EXPECT_TRUE(inspect_inbound(R"({"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}})").error_without_id);
  EXPECT_FALSE(inspect_inbound("nope").valid);
}

// An answer nested deeper than Boost.JSON's default 32 levels (a rich
// structuredContent) is read over HTTP as over stdio: to parse_frame's depth.
TEST(HttpClientRules, DeepAnswersAreReadAsParseFrameReadsThem) {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  const auto answer = [](const std::string& result) { return R"({"jsonrpc":"2.0","id":1,"result":{"v":)" + result + "}}"; };
  const auto deep = inspect_inbound(answer(nested(60)));
  EXPECT_TRUE(deep.valid);
  EXPECT_EQ(deep.answered, std::vector<std::string>{"1"});
  EXPECT_FALSE(inspect_inbound(answer(nested(200))).valid);
}

TEST(HttpClientRules, FailuresBecomeErrorAnswers) {
  EXPECT_EQ(error_answer("7", "HTTP request failed: boom"),
            R"({"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"HTTP request failed: boom"}})");
  EXPECT_EQ(http_status_answer("\"a\"", "POST http://h/mcp", 404, "Not Found", "", "s1"),
            R"({"jsonrpc":"2.0","id":"a","error":{"code":-32000,"message":"POST http://h/mcp answered HTTP 404 Not Found: )"
            R"(the session s1 has expired or was ended by the server; initialize a new session",)"
            R"("data":{"httpStatus":404,"sessionExpired":true}}})");
  EXPECT_EQ(http_status_answer("7", "POST http://h/mcp", 500, "", R"({"error":{"code":-32603,"message":"bad","data":1}})", ""),
            R"({"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"POST http://h/mcp answered HTTP 500: bad",)"
            R"("data":{"httpStatus":500,"serverData":1}}})");
  EXPECT_EQ(http_status_answer("7", "POST http://h/mcp", 403, "Forbidden", "go away", ""),
            R"({"jsonrpc":"2.0","id":7,"error":{"code":-32000,"message":"POST http://h/mcp answered HTTP 403 Forbidden: go away",)"
            R"("data":{"httpStatus":403}}})");
  EXPECT_EQ(with_id(R"({"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}})", "7"),
            R"({"jsonrpc":"2.0","id":7,"error":{"code":1,"message":"m"}})");
}

TEST(HttpRules, SseStreamsArePrimedFrom20251125On) {
  EXPECT_FALSE(primes_sse_streams(protocol_version::v2025_06_18));
  EXPECT_TRUE(primes_sse_streams(protocol_version::v2025_11_25));
  EXPECT_TRUE(primes_sse_streams(protocol_version::v2026_07_28));
}

TEST(HttpClientRules, TheClientTellsAnExpiredSessionByTheAnswerMadeOfA404) {
  const auto error_of = [](const std::string& answer) {
    return rpc_error{-32000, "", json::parse(answer).at("error").at("data")};
  };
  EXPECT_TRUE(says_session_expired(error_of(http_status_answer("7", "POST u", 404, "Not Found", "", "s1"))));
  EXPECT_FALSE(says_session_expired(error_of(http_status_answer("7", "POST u", 404, "Not Found", "", ""))));
  EXPECT_FALSE(says_session_expired(rpc_error{-32000, "", json::parse(R"({"sessionExpired":"yes"})")}));
  EXPECT_FALSE(says_session_expired(rpc_error{-32000, "", nullptr}));
}

}  // namespace
}  // namespace mcp::detail
