// The SDK's log records (include/mcp/log.hpp): the three line formats and
// their escaping, the level spec of CADUCEUS_LOG, and the sinks.

#include <mcp/error.hpp>
#include <mcp/log.hpp>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using mcp::log_category;
using mcp::log_field;
using mcp::log_format;
using mcp::log_level;
using mcp::log_record;
using namespace std::chrono_literals;

// 2026-11-27T09:05:27.123Z
const auto a_moment = std::chrono::system_clock::time_point(1795770327123ms);

std::string line(log_format format, std::string_view message, std::initializer_list<log_field> fields = {}) {
  const log_record r{a_moment, log_level::warn, log_category::transport, message, {fields.begin(), fields.size()}};
  return mcp::format_log_record(r, format);
}

// A text that needs every kind of escape: quotes, a backslash, a newline, a
// tab, a control character, DEL, non-ASCII, and a byte that is not UTF-8.
const std::string awkward = "say \"hi\"\\ now\nnext\tline\x01\x7f caf\xc3\xa9 \xe6\x97\xa5 bad\xff end";

TEST(LogFormat, TextIsTimeLevelCategoryMessageThenFields) {
  EXPECT_EQ(line(log_format::text, "session expired", {{"session_id", "3f2a"}, {"open", 12}}),
            "2026-11-27T09:05:27.123Z caduceus warn transport: session expired session_id=3f2a open=12");
}

TEST(LogFormat, ABoolIsTrueOrFalse) {
  const bool resumed = true;
  EXPECT_EQ(line(log_format::logfmt, "stream", {{"resumed", resumed}, {"replayed", false}}),
            "time=2026-11-27T09:05:27.123Z level=warn category=transport msg=stream resumed=true replayed=false");
  static_assert(!std::is_constructible_v<log_field, std::string_view, char>, "a char says what it is");
  static_assert(!std::is_constructible_v<log_field, std::string_view, const int*>, "a pointer is no bool");
}

TEST(LogFormat, JsonLinesHoldEveryFieldTyped) {
  const auto text = line(log_format::json, "request served",
                         {{"method", "tools/call"}, {"status", 200}, {"duration", 0.25}, {"peer", "127.0.0.1:5"}});
  EXPECT_EQ(text,
            R"({"time":"2026-11-27T09:05:27.123Z","level":"warn","category":"transport","msg":"request served",)"
            R"("method":"tools/call","status":200,"duration":0.25,"peer":"127.0.0.1:5"})");
}

TEST(LogFormat, LogfmtQuotesOnlyWhatNeedsIt) {
  EXPECT_EQ(line(log_format::logfmt, "read ended", {{"error", "End of file"}, {"bytes", 0}, {"empty", ""}, {"eq", "a=b"}}),
            "time=2026-11-27T09:05:27.123Z level=warn category=transport msg=\"read ended\" "
            "error=\"End of file\" bytes=0 empty=\"\" eq=\"a=b\"");
  EXPECT_EQ(line(log_format::logfmt, "plain", {{"name", "caf\xc3\xa9"}}),
            "time=2026-11-27T09:05:27.123Z level=warn category=transport msg=plain name=caf\xc3\xa9");
}

TEST(LogFormat, JsonEscapesQuotesNewlinesControlsAndBadBytes) {
  const auto text = line(log_format::json, awkward, {{"field", awkward}});
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_NE(text.find(R"(say \"hi\"\\ now\nnext\tline\u0001\u007f caf)"), std::string::npos) << text;
  EXPECT_NE(text.find("bad\\ufffd end"), std::string::npos) << text;
  // Valid JSON, whose strings read back as the text (the bad byte replaced).
  const auto parsed = boost::json::parse(text).as_object();
  const std::string expected = "say \"hi\"\\ now\nnext\tline\x01\x7f caf\xc3\xa9 \xe6\x97\xa5 bad\xef\xbf\xbd end";
  EXPECT_EQ(parsed.at("msg").as_string(), expected);
  EXPECT_EQ(parsed.at("field").as_string(), expected);
}

TEST(LogFormat, LogfmtQuotesAndEscapesAwkwardValues) {
  const auto text = line(log_format::logfmt, "m", {{"field", awkward}});
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_NE(text.find(R"( field="say \"hi\"\\ now\nnext\tline\u0001\u007f caf)"
                      "\xc3\xa9 \xe6\x97\xa5"
                      R"( bad\ufffd end")"),
            std::string::npos)
      << text;
}

TEST(LogFormat, TextKeepsOneLine) {
  const auto text = line(log_format::text, "first\nsecond \"quoted\"\x1b[31m");
  EXPECT_EQ(text.find('\n'), std::string::npos);
  EXPECT_NE(text.find("transport: first\\nsecond \"quoted\"\\u001b[31m"), std::string::npos) << text;
}

TEST(LogFormat, KeysAreKeptPlain) {
  EXPECT_EQ(line(log_format::logfmt, "m", {{"a key=", "v"}}),
            "time=2026-11-27T09:05:27.123Z level=warn category=transport msg=m a_key_=v");
}

TEST(LogFormat, NonFiniteNumbersStayValid) {
  const auto json = line(log_format::json, "m", {{"x", std::numeric_limits<double>::infinity()}});
  EXPECT_EQ(boost::json::parse(json).as_object().at("x"), nullptr);
  EXPECT_NE(line(log_format::logfmt, "m", {{"x", std::numeric_limits<double>::quiet_NaN()}}).find(" x=NaN"),
            std::string::npos);
}

TEST(LogFormat, NamesOfFormatsLevelsAndCategories) {
  EXPECT_EQ(mcp::log_format_named("json"), log_format::json);
  EXPECT_EQ(mcp::log_format_named("logfmt"), log_format::logfmt);
  EXPECT_EQ(mcp::log_format_named("JSON"), std::nullopt);
  EXPECT_EQ(mcp::log_level_named("warning"), log_level::warn);
  EXPECT_EQ(mcp::log_level_named("verbose"), std::nullopt);
  EXPECT_EQ(mcp::log_category_named("auth"), log_category::auth);
  EXPECT_EQ(mcp::to_string(log_category::access), "access");
}

// Restores the levels and the sink a test changed.
class LogLevels : public ::testing::Test {
 protected:
  void SetUp() override {
    for (int i = 0; i < static_cast<int>(log_category::count_); ++i)
      saved_.push_back(mcp::sdk_log_level(static_cast<log_category>(i)));
  }
  void TearDown() override {
    for (int i = 0; i < static_cast<int>(log_category::count_); ++i)
      mcp::set_sdk_log_level(static_cast<log_category>(i), saved_[i]);
    mcp::set_sdk_log_sink(nullptr);
  }
  std::vector<log_level> saved_;
};

TEST_F(LogLevels, ASpecSetsTheDefaultAndEachCategoryNamed) {
  mcp::set_sdk_log_level(log_category::access, log_level::info);
  mcp::set_sdk_log_levels("error, transport=debug ,auth=trace");
  EXPECT_EQ(mcp::sdk_log_level(log_category::server), log_level::error);
  EXPECT_EQ(mcp::sdk_log_level(log_category::session), log_level::error);
  EXPECT_EQ(mcp::sdk_log_level(log_category::transport), log_level::debug);
  EXPECT_EQ(mcp::sdk_log_level(log_category::auth), log_level::trace);
  EXPECT_EQ(mcp::sdk_log_level(log_category::access), log_level::info) << "a bare level leaves the access log";
  mcp::set_sdk_log_levels("access=off");
  EXPECT_EQ(mcp::sdk_log_level(log_category::access), log_level::off);
  EXPECT_TRUE(mcp::sdk_log_enabled(log_category::transport, log_level::debug));
  EXPECT_FALSE(mcp::sdk_log_enabled(log_category::transport, log_level::trace));
  EXPECT_FALSE(mcp::sdk_log_enabled(log_category::access, log_level::error));
}

TEST_F(LogLevels, ABadSpecIsRefusedAndChangesNothing) {
  mcp::set_sdk_log_levels("warn");
  for (const auto* bad : {"", "verbose", "info,transport=loud", "info,nosuch=debug", "info,,debug", "=info",
                          "transport="}) {
    EXPECT_THROW(mcp::set_sdk_log_levels(bad), mcp::invalid_argument) << bad;
    EXPECT_EQ(mcp::sdk_log_level(log_category::server), log_level::warn) << bad;
    EXPECT_EQ(mcp::sdk_log_level(log_category::transport), log_level::warn) << bad;
  }
}

TEST_F(LogLevels, ASinkGetsTheRecordsThatPassTheirCategorysLevel) {
  mcp::set_sdk_log_levels("warn,session=info");
  std::vector<std::string> seen;
  mcp::set_sdk_log_sink([&](const log_record& r) {
    const auto* id = r.field("session_id");
    seen.push_back(std::string(mcp::to_string(r.category)) + " " + std::string(r.message) + " " +
                   std::string(id ? id->text : "-"));
  });
  const std::string id = "abc";
  mcp::sdk_log(log_category::session, log_level::info, "opened", {{"session_id", id}});
  mcp::sdk_log(log_category::transport, log_level::info, "not shown");
  mcp::sdk_log(log_category::transport, log_level::error, "shown");
  EXPECT_EQ(seen, (std::vector<std::string>{"session opened abc", "transport shown -"}));
}

TEST_F(LogLevels, ASinkOfTheEarlierKindGetsTheMessageAndItsFields) {
  mcp::set_sdk_log_levels("info");
  std::vector<std::string> seen;
  mcp::set_sdk_log_sink([&](log_level, std::string_view text) { seen.emplace_back(text); });
  mcp::sdk_log(log_category::client, log_level::info, "connected", {{"server", "demo server"}, {"attempt", 2}});
  mcp::set_sdk_log_sink({});
  EXPECT_EQ(seen, (std::vector<std::string>{"connected server=\"demo server\" attempt=2"}));
}

}  // namespace
