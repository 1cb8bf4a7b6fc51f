// What the HTTP server writes on an SSE stream (transport/http/server/sse.hpp):
// the exact text a client's EventSource parser reads.

#include "transport/http/server/sse.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using namespace std::chrono_literals;
using mcp::detail::append_sse_event;
using mcp::detail::sse_event_id;

TEST(SseFraming, AMessageEventWithAnId) {
  std::string out = "before\n";
  append_sse_event(out, std::string_view("s1_4"), R"({"jsonrpc":"2.0"})");
  EXPECT_EQ(out, "before\nevent: message\nid: s1_4\ndata: {\"jsonrpc\":\"2.0\"}\n\n");
}

TEST(SseFraming, AnEmptyIdWritesNoIdField) {
  EXPECT_EQ(mcp::detail::sse_event({}, "/messages?sessionId=x", "endpoint"),
            "event: endpoint\ndata: /messages?sessionId=x\n\n");
}

TEST(SseFraming, AStreamsEventIdIsItsStreamAndSequenceNumber) {
  std::string out;
  append_sse_event(out, sse_event_id{"c0ffee", 18446744073709551615u}, "x");
  EXPECT_EQ(out, "event: message\nid: c0ffee_18446744073709551615\ndata: x\n\n");
  out.clear();
  mcp::detail::append_sse_priming_event(out, sse_event_id{"c0ffee", 0}, 1500ms);
  EXPECT_EQ(out, "id: c0ffee_0\nretry: 1500\ndata: \n\n");
}

TEST(SseFraming, EveryLineOfTheDataGetsADataField) {
  EXPECT_EQ(mcp::detail::sse_event({}, "a\nb\n\nc"), "event: message\ndata: a\ndata: b\ndata: \ndata: c\n\n");
  EXPECT_EQ(mcp::detail::sse_event({}, "ends with a newline\n"),
            "event: message\ndata: ends with a newline\ndata: \n\n");
  EXPECT_EQ(mcp::detail::sse_event({}, ""), "event: message\ndata: \n\n");
}

}  // namespace
