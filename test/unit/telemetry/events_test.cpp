// The subscriber table of telemetry events: who hears what, and for how long.

#include <mcp/telemetry/events.hpp>

#include <gtest/gtest.h>

#include <array>

namespace mcp::telemetry {
namespace {

TEST(TelemetryEvents, NamesRoundTrip) {
  for (unsigned i = 0; i < static_cast<unsigned>(event::count_); ++i) {
    const auto e = static_cast<event>(i);
    ASSERT_FALSE(name(e).empty());
    EXPECT_EQ(event_named(name(e)), e);
  }
  EXPECT_EQ(name(event::server_request_stop), "server.request.stop");
  EXPECT_FALSE(event_named("no.such.event"));
}

TEST(TelemetryEvents, AHandlerHearsOnlyItsEventsWhileAttached) {
  EXPECT_FALSE(listening(event::tool_call));
  int heard = 0;
  std::string method;
  double duration = 0;
  std::int64_t code = 0;
  {
    auto sub = attach({event::tool_call}, [&](const event_data& e) {
      ++heard;
      method = std::string(e.text("method"));
      duration = e.number("duration").value_or(-1);
      code = e.integer("error_code").value_or(0);
      EXPECT_EQ(e.name(), "server.tool.call");
      EXPECT_FALSE(e.number("absent"));
      EXPECT_EQ(e.text("error_code"), "");  // a number, not text
    });
    EXPECT_TRUE(listening(event::tool_call));
    EXPECT_FALSE(listening(event::prompt_get));
    emit(event::tool_call, {{"duration", 0.25}}, {{"method", "tools/call"}, {"error_code", -32602}});
    emit(event::prompt_get, {}, {});
  }
  EXPECT_FALSE(listening(event::tool_call));
  emit(event::tool_call, {}, {});
  EXPECT_EQ(heard, 1);
  EXPECT_EQ(method, "tools/call");
  EXPECT_EQ(duration, 0.25);
  EXPECT_EQ(code, -32602);
}

TEST(TelemetryEvents, AThrowingHandlerDoesNotStopTheOthers) {
  int heard = 0;
  auto bad = attach_all([](const event_data&) { throw std::runtime_error("subscriber bug"); });
  auto good = attach({event::session_created}, [&](const event_data&) { ++heard; });
  EXPECT_NO_THROW(emit(event::session_created, {}, {}));
  EXPECT_EQ(heard, 1);
}

TEST(TelemetryEvents, SubscriptionsMoveAndDetachOnce) {
  int heard = 0;
  auto first = attach({event::stream_opened}, [&](const event_data&) { ++heard; });
  subscription moved = std::move(first);
  EXPECT_FALSE(first);
  EXPECT_TRUE(moved);
  emit(event::stream_opened, {}, {});
  moved.detach();
  moved.detach();
  emit(event::stream_opened, {}, {});
  EXPECT_EQ(heard, 1);
  EXPECT_FALSE(listening(event::stream_opened));
}

TEST(TelemetryEvents, TwoSubscribersOfOneEventKeepItListenedUntilBothLeave) {
  auto a = attach({event::http_request}, [](const event_data&) {});
  {
    auto b = attach({event::http_request, event::parse_error}, [](const event_data&) {});
    EXPECT_TRUE(listening(event::parse_error));
  }
  EXPECT_TRUE(listening(event::http_request));
  EXPECT_FALSE(listening(event::parse_error));
}

}  // namespace
}  // namespace mcp::telemetry
