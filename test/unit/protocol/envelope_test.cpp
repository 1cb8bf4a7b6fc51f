// The envelope of a 2026-07-28 request (basic/index, "Per-request protocol
// fields"), read as a server reads it: the era it picks, and the errors of
// the spec's ladder for what is missing, malformed or unsupported.

#include <mcp/protocol/envelope.hpp>
#include <mcp/protocol/errors.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <array>
#include <string>

namespace {

using namespace mcp;

json::object params_with(std::string_view meta_json) {
  return json::object{{"name", "echo"}, {"_meta", json::parse(meta_json)}};
}

constexpr std::string_view full_meta = R"({
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {"sampling": {}},
  "io.modelcontextprotocol/clientInfo": {"name": "probe", "version": "1.0.0"},
  "io.modelcontextprotocol/logLevel": "warning",
  "traceparent": "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",
  "tracestate": "vendor=opaque",
  "baggage": "tenant=blue"
})";

// The error a call throws, or nullopt when it throws none.
template <class F>
std::optional<rpc_error> error_of(F&& f) {
  try {
    f();
  } catch (const protocol_error& e) {
    return e.error();
  }
  return std::nullopt;
}

TEST(Envelope, ItsProtocolVersionPicksTheModernEra) {
  EXPECT_TRUE(carries_envelope(params_with(full_meta)));
  EXPECT_FALSE(carries_envelope(json::object{{"protocolVersion", "2025-11-25"}}));  // initialize
  EXPECT_FALSE(carries_envelope(params_with(R"({"progressToken": 1})")));
  EXPECT_FALSE(carries_envelope(json::object{{"_meta", "not an object"}}));
}

TEST(Envelope, ReadsEveryField) {
  const auto envelope = read_envelope(params_with(full_meta));
  EXPECT_EQ(envelope.protocol_version, "2026-07-28");
  EXPECT_TRUE(envelope.client_capabilities.contains("sampling"));
  ASSERT_TRUE(envelope.client_info.has_value());
  EXPECT_EQ(envelope.client_info->name, "probe");
  EXPECT_EQ(envelope.log_level, logging_level::warning);
  EXPECT_EQ(envelope.trace.traceparent, "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01");
  EXPECT_EQ(envelope.trace.tracestate, "vendor=opaque");
  EXPECT_EQ(envelope.trace.baggage, "tenant=blue");
}

TEST(Envelope, ClientInfoLogLevelAndTraceAreOptional) {
  const auto envelope = read_envelope(params_with(R"({
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {}})"));
  EXPECT_FALSE(envelope.client_info.has_value());
  EXPECT_FALSE(envelope.log_level.has_value());
  EXPECT_TRUE(envelope.trace.empty());
}

TEST(Envelope, MissingFieldsAreInvalidParamsNamingEachOne) {
  const auto no_meta = error_of([] { (void)read_envelope(json::object{{"name", "echo"}}); });
  ASSERT_TRUE(no_meta.has_value());
  EXPECT_EQ(no_meta->code, errc::invalid_params);
  EXPECT_EQ(no_meta->data, json::parse(R"({"envelope": {"missing": ["_meta"]}})"));
  const auto no_fields = error_of([] { (void)read_envelope(params_with(R"({"progressToken": 1})")); });
  ASSERT_TRUE(no_fields.has_value());
  EXPECT_EQ(no_fields->code, errc::invalid_params);
  EXPECT_EQ(no_fields->data, json::parse(R"({"envelope": {"missing": [
    "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities"]}})"));
  EXPECT_NE(no_fields->message.find("io.modelcontextprotocol/clientCapabilities"), std::string::npos);
}

TEST(Envelope, MalformedFieldsAreInvalidParams) {
  const auto malformed = error_of([] {
    (void)read_envelope(params_with(R"({
      "io.modelcontextprotocol/protocolVersion": 20260728,
      "io.modelcontextprotocol/clientCapabilities": [],
      "io.modelcontextprotocol/logLevel": "loud"})"));
  });
  ASSERT_TRUE(malformed.has_value());
  EXPECT_EQ(malformed->code, errc::invalid_params);
  EXPECT_EQ(malformed->data, json::parse(R"({"envelope": {"invalid": [
    "io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities",
    "io.modelcontextprotocol/logLevel"]}})"));
  const auto bad_info = error_of([] {
    (void)read_envelope(params_with(R"({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": {"name": 7}})"));
  });
  ASSERT_TRUE(bad_info.has_value());
  EXPECT_EQ(bad_info->code, errc::invalid_params);
}

TEST(Envelope, AnInvalidTraceparentStartsANewTrace) {
  for (const auto* bad : {"00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7",      // no flags
                          "00-00000000000000000000000000000000-00f067aa0ba902b7-01",   // zero trace id
                          "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",   // zero parent id
                          "ff-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01",   // version ff
                          "00-0AF7651916CD43DD8448EB211C80319C-00f067aa0ba902b7-01",   // upper case
                          "00-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-x"}) {  // v00 is 55 long
    json::object params = params_with(full_meta);
    params["_meta"].as_object()["traceparent"] = bad;
    const auto envelope = read_envelope(params);
    EXPECT_TRUE(envelope.trace.empty()) << bad;
    EXPECT_TRUE(envelope.trace.baggage.empty()) << bad;
  }
  json::object later = params_with(full_meta);  // a later version may append fields
  later["_meta"].as_object()["traceparent"] = "01-0af7651916cd43dd8448eb211c80319c-00f067aa0ba902b7-01-abc";
  EXPECT_FALSE(read_envelope(later).trace.empty());
}

TEST(Envelope, AnUnsupportedVersionListsTheSupportedOnes) {
  constexpr std::array supported{protocol_version::v2025_11_25, protocol_version::v2026_07_28};
  EXPECT_EQ(envelope_version(read_envelope(params_with(full_meta)), supported), protocol_version::v2026_07_28);
  for (const auto* requested : {"v999.0.0", "2025-11-25"}) {  // unknown, or a legacy one
    request_envelope envelope;
    envelope.protocol_version = requested;
    const auto refused = error_of([&] { (void)envelope_version(envelope, supported); });
    ASSERT_TRUE(refused.has_value()) << requested;
    EXPECT_EQ(refused->code, errc::unsupported_protocol_version);
    EXPECT_EQ(refused->data, (json::object{{"supported", json::array{"2026-07-28"}}, {"requested", requested}}));
  }
  constexpr std::array legacy_only{protocol_version::v2025_11_25};
  const auto none = error_of([&] {
    request_envelope envelope;
    envelope.protocol_version = "2026-07-28";
    (void)envelope_version(envelope, legacy_only);
  });
  ASSERT_TRUE(none.has_value());
  EXPECT_EQ(none->data.at("supported"), json::array{});
}

}  // namespace
