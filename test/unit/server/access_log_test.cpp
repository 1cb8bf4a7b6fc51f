// The access log (include/mcp/server/access_log.hpp) from a synthetic
// http.request event: integration_tests' AccessLog drives a real HTTP server.

#include <mcp/log.hpp>
#include <mcp/server/access_log.hpp>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

namespace telemetry = mcp::telemetry;

class AccessLog : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_ = mcp::sdk_log_level(mcp::log_category::access);
    mcp::set_sdk_log_level(mcp::log_category::access, mcp::log_level::info);
    mcp::set_sdk_log_sink([this](const mcp::log_record& r) {
      if (r.category == mcp::log_category::access) lines_.push_back(mcp::format_log_record(r, mcp::log_format::json));
    });
  }
  void TearDown() override {
    mcp::set_sdk_log_sink(nullptr);
    mcp::set_sdk_log_level(mcp::log_category::access, saved_);
  }
  static void emit_request(std::string_view session_id) {
    const std::array<telemetry::attribute, 8> metadata{
        telemetry::attribute{"http_method", "POST"},      telemetry::attribute{"path", "/mcp"},
        telemetry::attribute{"status", 200},              telemetry::attribute{"peer", "127.0.0.1:40000"},
        telemetry::attribute{"session_id", session_id},   telemetry::attribute{"user_agent", "test \"agent\""},
        telemetry::attribute{"trace_id", "4bf92f3577b34da6a3ce929d0e0e4736"},
        telemetry::attribute{"method", "tools/call"}};
    const std::array<telemetry::measurement, 3> measurements{telemetry::measurement{"duration", 0.5},
                                                             telemetry::measurement{"bytes_in", 120},
                                                             telemetry::measurement{"bytes_out", 4096}};
    const std::size_t count = session_id.empty() ? 4 : metadata.size();  // as the server leaves out what is empty
    telemetry::emit(telemetry::event::http_request, measurements, {metadata.data(), count});
  }
  mcp::log_level saved_{};
  std::vector<std::string> lines_;
};

TEST_F(AccessLog, ALinePerRequestWithEveryField) {
  const auto access = mcp::enable_access_log();
  emit_request("abc123");
  ASSERT_EQ(lines_.size(), 1u);
  const auto line = boost::json::parse(lines_[0]).as_object();
  EXPECT_EQ(line.at("level"), "info");
  EXPECT_EQ(line.at("category"), "access");
  EXPECT_EQ(line.at("msg"), "POST /mcp 200");
  EXPECT_EQ(line.at("http_method"), "POST");
  EXPECT_EQ(line.at("path"), "/mcp");
  EXPECT_EQ(line.at("status"), 200);
  EXPECT_EQ(line.at("duration"), 0.5);
  EXPECT_EQ(line.at("bytes_in"), 120);
  EXPECT_EQ(line.at("bytes_out"), 4096);
  EXPECT_EQ(line.at("peer"), "127.0.0.1:40000");
  EXPECT_EQ(line.at("session_id"), "abc123");
  EXPECT_EQ(line.at("method"), "tools/call");
  EXPECT_EQ(line.at("user_agent"), "test \"agent\"");
  EXPECT_EQ(line.at("trace_id"), "4bf92f3577b34da6a3ce929d0e0e4736");
}

TEST_F(AccessLog, WhatDoesNotApplyIsLeftOut) {
  const auto access = mcp::enable_access_log();
  emit_request("");
  ASSERT_EQ(lines_.size(), 1u);
  const auto line = boost::json::parse(lines_[0]).as_object();
  EXPECT_FALSE(line.contains("session_id"));
  EXPECT_FALSE(line.contains("trace_id"));
  EXPECT_EQ(line.at("status"), 200);
}

TEST_F(AccessLog, OffUntilEnabledAndSilencedByItsLevel) {
  emit_request("abc");
  EXPECT_TRUE(lines_.empty()) << "not enabled";
  const auto access = mcp::enable_access_log();
  mcp::set_sdk_log_levels("access=off");
  emit_request("abc");
  EXPECT_TRUE(lines_.empty()) << "access=off";
}

}  // namespace
