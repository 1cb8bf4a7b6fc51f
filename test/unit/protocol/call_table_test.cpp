// The table of requests we sent: the ids and frames it gives them, the
// deadlines progress moves (never past the hard one), which call a progress
// notification or a reply belongs to, the `notifications/cancelled` a call
// that gives up sends, and the end of everything. Plain calls, and a clock
// that is only numbers: no io_context, no socket, no coroutine.

#include "json_text.hpp"
#include "../../src/protocol/call_table.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {
namespace {

using namespace std::chrono_literals;
using time_point = call_table::time_point;

const time_point t0{};  // the tests' clock starts here

call_table::terms no_progress() { return {10s, 60s}; }

using test::object;  // json_text.hpp

// A message as the peer would send it.
message reply(std::string_view text) { return std::get<message>(parse_frame(text).items.at(0)); }

TEST(CallTable, IdsCountFromOneAndFramesAreTheRequests) {
  call_table table;
  const auto first = table.open("tools/list", {}, no_progress(), t0);
  const auto second = table.open("tools/call", object(R"({"name":"echo"})"), no_progress(), t0);
  EXPECT_EQ(first.id, 1);
  EXPECT_EQ(second.id, 2);
  EXPECT_EQ(first.frame, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
  EXPECT_EQ(second.frame, R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo"}})");
  EXPECT_FALSE(table.empty());
}

TEST(CallTable, AProgressTokenOnlyWithAHandler) {
  struct asked {
    const char* params;
    bool handler;
    const char* frame;
  };
  const asked cases[] = {
      {R"({"name":"echo"})", false, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}})"},
      {R"({"name":"echo"})", true,
       R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"progressToken":1}}})"},
      // The caller's own _meta keeps its keys; one that is not an object is replaced.
      {R"({"_meta":{"trace":"t"}})", true,
       R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"trace":"t","progressToken":1}}})"},
      {R"({"_meta":7})", true, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"progressToken":1}}})"},
      {R"({"_meta":7})", false, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":7}})"},
  };
  for (const auto& c : cases) {
    call_table table;
    call_table::terms terms = no_progress();
    if (c.handler) terms.on_progress = [](const json::object&) {};
    EXPECT_EQ(table.open("tools/call", object(c.params), std::move(terms), t0).frame, c.frame) << c.params;
  }
}

// The client's 2026-07-28 envelope, serialized once, is written into each
// request's `_meta` next to what the request puts there itself.
TEST(CallTable, MetaMembersAreWrittenIntoTheRequestsMeta) {
  const auto envelope = std::make_shared<const std::string>(R"("v":"2026-07-28","info":{"name":"c"})");
  struct asked {
    const char* params;
    bool handler;
    const char* frame;
  };
  const asked cases[] = {
      {R"({})", false, R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"v":"2026-07-28","info":{"name":"c"}}}})"},
      {R"({"name":"echo","arguments":{"text":"hi"}})", false,
       R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"v":"2026-07-28","info":{"name":"c"}}}})"},
      {R"({"_meta":{"traceparent":"t"},"name":"echo"})", true,
       R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"echo","_meta":{"v":"2026-07-28","info":{"name":"c"},"traceparent":"t","progressToken":1}}})"},
      {R"({"_meta":7})", false, R"({"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"v":"2026-07-28","info":{"name":"c"}}}})"},
  };
  for (const auto& c : cases) {
    call_table table;
    call_table::terms terms = no_progress();
    terms.meta_members = envelope;
    if (c.handler) terms.on_progress = [](const json::object&) {};
    const auto frame = table.open("m", object(c.params), std::move(terms), t0).frame;
    EXPECT_EQ(frame, c.frame) << c.params;
    EXPECT_NO_THROW(json::parse(frame)) << frame;
  }
}

TEST(CallTable, TheFirstDeadlineIsTheTimeoutCappedByTheHardDeadline) {
  call_table table;
  EXPECT_EQ(table.open("a", {}, {10s, 60s}, t0).deadline, t0 + 10s);
  EXPECT_EQ(table.open("b", {}, {10s, 4s}, t0 + 1s).deadline, t0 + 5s);
  EXPECT_EQ(table.deadline(1), t0 + 10s);
  EXPECT_EQ(table.deadline(2), t0 + 5s);
}

TEST(CallTable, ProgressRestartsTheTimeoutButNeverPassesTheHardDeadline) {
  struct step {
    std::chrono::seconds at;
    std::optional<std::chrono::seconds> moved_to;  // none: the deadline stays
  };
  const step steps[] = {
      {5s, 15s},
      {12s, 22s},
      {20s, 25s},  // capped: 30s would pass the hard deadline
      {24s, {}},   // already at the cap; the handler still hears of it
      {25s, {}},
  };
  call_table table;
  std::vector<double> heard;
  std::vector<time_point> deadline_when_heard;
  const auto call = table.open("tools/call", {},
                               {10s, 25s,
                                [&](const json::object& params) {
                                  heard.push_back(params.at("progress").to_number<double>());
                                  deadline_when_heard.push_back(table.deadline(1));
                                }},
                               t0);
  auto expected_deadline = call.deadline;
  for (const auto& s : steps) {
    json::object params{{"progressToken", 1}, {"progress", s.at.count()}};
    const auto moved = table.on_progress(params, t0 + s.at);
    // The handler runs first, and sees the deadline before the move.
    ASSERT_FALSE(deadline_when_heard.empty());
    EXPECT_EQ(deadline_when_heard.back(), expected_deadline) << "at " << s.at.count();
    EXPECT_EQ(heard.back(), s.at.count());
    if (s.moved_to) {
      ASSERT_TRUE(moved) << "at " << s.at.count();
      EXPECT_EQ(moved->id, 1);
      EXPECT_EQ(moved->deadline, t0 + *s.moved_to);
      expected_deadline = t0 + *s.moved_to;
    } else {
      EXPECT_FALSE(moved) << "at " << s.at.count();
    }
    EXPECT_EQ(table.deadline(1), expected_deadline);
  }
  EXPECT_EQ(heard.size(), std::size(steps));
}

TEST(CallTable, ProgressOnlyReachesTheCallThatOwnsAnIntegerToken) {
  const char* ignored[] = {
      R"({"progress":1})",                      // no token
      R"({"progressToken":"1","progress":1})",  // a string token: never one of ours
      R"({"progressToken":1.5,"progress":1})",  // not an integer
      R"({"progressToken":9,"progress":1})",    // no such call
      R"({"progressToken":2,"progress":1})",    // a call that asked for no progress
  };
  call_table table;
  int heard = 0;
  table.open("tools/call", {}, {10s, 60s, [&](const json::object&) { ++heard; }}, t0);
  table.open("tools/call", {}, no_progress(), t0);
  for (const char* params : ignored) {
    EXPECT_FALSE(table.on_progress(object(params), t0 + 5s)) << params;
    EXPECT_EQ(heard, 0) << params;
  }
  EXPECT_EQ(table.deadline(1), t0 + 10s);
  EXPECT_EQ(table.deadline(2), t0 + 10s);

  const auto moved = table.on_progress(object(R"({"progressToken":1,"progress":1})"), t0 + 5s);
  EXPECT_EQ(heard, 1);
  ASSERT_TRUE(moved);
  EXPECT_EQ(moved->id, 1);
  EXPECT_EQ(table.deadline(2), t0 + 10s);  // the other call's deadline stays
}

TEST(CallTable, AResultReachesItsCallOnce) {
  call_table table;
  table.open("tools/list", {}, no_progress(), t0);
  table.open("tools/list", {}, no_progress(), t0);
  EXPECT_EQ(table.deliver(reply(R"({"jsonrpc":"2.0","id":2,"result":{"tools":[]}})")), 2);
  EXPECT_FALSE(table.settled(1));
  EXPECT_TRUE(table.settled(2));
  const auto result = table.finish(2);
  ASSERT_TRUE(result);
  EXPECT_EQ(json::serialize(*result), R"({"tools":[]})");
  EXPECT_FALSE(table.deliver(reply(R"({"jsonrpc":"2.0","id":2,"result":{}})")));  // gone with finish
}

TEST(CallTable, RepliesNoCallAwaitsAreRefused) {
  const char* refused[] = {
      R"({"jsonrpc":"2.0","id":7,"result":{}})",    // unknown id
      R"({"jsonrpc":"2.0","id":"1","result":{}})",  // our ids are integers
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})",  // answers no request
      R"({"jsonrpc":"2.0","method":"notifications/progress","params":{}})",  // not a reply
  };
  call_table table;
  table.open("tools/list", {}, no_progress(), t0);
  for (const char* text : refused) EXPECT_FALSE(table.deliver(reply(text))) << text;
  EXPECT_FALSE(table.settled(1));
}

TEST(CallTable, AnErrorResponseIsAProtocolError) {
  call_table table;
  table.open("tools/call", {}, no_progress(), t0);
  const auto error = reply(R"({"jsonrpc":"2.0","id":1,
                              "error":{"code":-32602,"message":"Unknown tool","data":{"name":"x"}}})");
  EXPECT_EQ(table.deliver(error), 1);
  try {
    table.finish(1);
    ADD_FAILURE() << "expected protocol_error";
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_params);
    EXPECT_STREQ(e.what(), "Unknown tool");
    EXPECT_EQ(json::serialize(e.error().data), R"({"name":"x"})");
  }
  EXPECT_TRUE(table.empty());
}

TEST(CallTable, AResultThatIsNotAnObjectIsMalformed) {
  call_table table;
  table.open("tools/call", {}, no_progress(), t0);
  table.deliver(reply(R"({"jsonrpc":"2.0","id":1,"result":[1]})"));
  try {
    table.finish(1);
    ADD_FAILURE() << "expected protocol_error";
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::internal_error);
    EXPECT_STREQ(e.what(), "Malformed response: result is not an object");
  }
  EXPECT_TRUE(table.empty());
}

TEST(CallTable, ACallThatTimesOutTellsThePeerAndRefusesTheLateReply) {
  call_table table;
  table.open("tools/call", {}, no_progress(), t0);
  EXPECT_EQ(table.expire(1),
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"Request timed out"}})");
  EXPECT_TRUE(table.empty());
  EXPECT_FALSE(table.deliver(reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")));
  EXPECT_FALSE(table.on_progress(object(R"({"progressToken":1,"progress":1})"), t0 + 1s));
}

TEST(CallTable, ACancelledCallTellsThePeer) {
  call_table table;
  table.open("tools/call", {}, no_progress(), t0);
  table.open("tools/call", {}, no_progress(), t0);
  EXPECT_EQ(table.cancel(2),
            R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"Request cancelled"}})");
  EXPECT_FALSE(table.deliver(reply(R"({"jsonrpc":"2.0","id":2,"result":{}})")));
  EXPECT_EQ(table.deliver(reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")), 1);
}

TEST(CallTable, AWithdrawnCallIsForgottenAndItsIdNotReused) {
  call_table table;
  table.open("tools/call", {}, no_progress(), t0);
  table.withdraw(1);
  EXPECT_TRUE(table.empty());
  EXPECT_FALSE(table.deliver(reply(R"({"jsonrpc":"2.0","id":1,"result":{}})")));
  EXPECT_EQ(table.open("tools/call", {}, no_progress(), t0).id, 2);
}

TEST(CallTable, CloseFailsEveryWaitingCall) {
  call_table table;
  table.open("a", {}, no_progress(), t0);
  table.open("b", {}, no_progress(), t0);
  table.open("c", {}, no_progress(), t0);
  // A reply that came before the end still counts.
  EXPECT_EQ(table.deliver(reply(R"({"jsonrpc":"2.0","id":3,"result":{"ok":true}})")), 3);
  table.close();
  for (const std::int64_t id : {1, 2, 3}) EXPECT_TRUE(table.settled(id)) << id;
  EXPECT_FALSE(table.finish(1));
  EXPECT_FALSE(table.finish(2));
  const auto answered = table.finish(3);
  ASSERT_TRUE(answered);
  EXPECT_EQ(json::serialize(*answered), R"({"ok":true})");
  EXPECT_TRUE(table.empty());
}

}  // namespace
}  // namespace mcp::detail
