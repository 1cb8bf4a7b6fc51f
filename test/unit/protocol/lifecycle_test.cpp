// Behaviour of the legacy handshake: reading and writing initialize requests
// and results, shaping implementation info per revision, and the lifecycle
// state machine that decides which requests a session admits.

#include <mcp/protocol/lifecycle.hpp>

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string>
#include <string_view>

namespace {

using namespace mcp;
namespace json = boost::json;
using v = protocol_version;

json::object good_initialize_params() {
  return json::parse(R"({
    "protocolVersion": "2025-06-18",
    "capabilities": {"roots": {"listChanged": true}, "sampling": {}},
    "clientInfo": {"name": "test-client", "version": "1.2.3", "title": "Test Client"}
  })")
      .as_object();
}

json::object good_initialize_result(std::string_view version = "2025-06-18") {
  json::object result = json::parse(R"({
    "capabilities": {"tools": {"listChanged": true}},
    "serverInfo": {"name": "srv", "version": "0.1"},
    "instructions": "be nice"
  })")
                            .as_object();
  result["protocolVersion"] = version;
  return result;
}

implementation full_implementation() {
  return implementation{"impl",
                        "9.9",
                        "Impl Title",
                        "An implementation",
                        "https://example.com",
                        json::array{json::object{{"src", "https://example.com/i.png"}}}};
}

// Runs `f`, expecting a protocol_error -32602 whose message names `path`.
void expect_invalid_params(const std::function<void()>& f, std::string_view path) {
  try {
    f();
    ADD_FAILURE() << "expected protocol_error naming " << path;
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::invalid_params) << e.what();
    EXPECT_EQ(e.error().code, errc::invalid_params);
    EXPECT_NE(std::string_view(e.what()).find(path), std::string_view::npos)
        << "message '" << e.what() << "' does not name " << path;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected protocol_error, got: " << e.what();
  }
}

// Runs `f`, expecting a malformed_result of `initialize` whose message names `path`.
void expect_malformed(const std::function<void()>& f, std::string_view path) {
  try {
    f();
    ADD_FAILURE() << "expected malformed_result naming " << path;
  } catch (const malformed_result& e) {
    EXPECT_EQ(e.method(), "initialize");
    EXPECT_NE(std::string_view(e.what()).find(path), std::string_view::npos)
        << "message '" << e.what() << "' does not name " << path;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected malformed_result, got: " << e.what();
  }
}

void expect_request_rejected(const json::object& params, std::string_view path) {
  SCOPED_TRACE(json::serialize(params));
  expect_invalid_params([&] { parse_initialize_request(params); }, path);
}

// --- parse_initialize_request ----------------------------------------------------

TEST(InitializeRequest, ParsesWellFormedRequest) {
  const auto req = parse_initialize_request(good_initialize_params());
  EXPECT_EQ(req.protocol_version, "2025-06-18");
  EXPECT_EQ(req.capabilities,
            (json::object{{"roots", json::object{{"listChanged", true}}}, {"sampling", json::object{}}}));
  EXPECT_EQ(req.client_info.name, "test-client");
  EXPECT_EQ(req.client_info.version, "1.2.3");
  EXPECT_EQ(req.client_info.title, "Test Client");
  EXPECT_FALSE(req.client_info.description.has_value());
  EXPECT_FALSE(req.client_info.website_url.has_value());
  EXPECT_TRUE(req.client_info.icons.empty());
}

TEST(InitializeRequest, KeepsUnknownProtocolVersionVerbatim) {
  auto params = good_initialize_params();
  params["protocolVersion"] = "2099-01-01";
  EXPECT_EQ(parse_initialize_request(params).protocol_version, "2099-01-01");
}

TEST(InitializeRequest, AcceptsEmptyCapabilitiesAndMinimalClientInfo) {
  const auto req = parse_initialize_request(json::parse(R"({
    "protocolVersion": "2024-11-05", "capabilities": {},
    "clientInfo": {"name": "", "version": ""}})")
                                                .as_object());
  EXPECT_TRUE(req.capabilities.empty());
  EXPECT_EQ(req.client_info.name, "");
  EXPECT_FALSE(req.client_info.title.has_value());
}

TEST(InitializeRequest, ReadsEveryOptionalClientInfoField) {
  auto params = good_initialize_params();
  params["clientInfo"] = json::parse(R"({"name":"n","version":"v","title":"T",
    "description":"D","websiteUrl":"https://w","icons":[{"src":"https://w/i.svg"}]})");
  const auto info = parse_initialize_request(params).client_info;
  EXPECT_EQ(info.title, "T");
  EXPECT_EQ(info.description, "D");
  EXPECT_EQ(info.website_url, "https://w");
  EXPECT_EQ(info.icons, (json::array{json::object{{"src", "https://w/i.svg"}}}));
}

TEST(InitializeRequest, IgnoresWrongTypedOptionalClientInfoFields) {
  auto params = good_initialize_params();
  params["clientInfo"] =
      json::parse(R"({"name":"n","version":"v","title":5,"websiteUrl":null,"icons":"x"})");
  const auto info = parse_initialize_request(params).client_info;
  EXPECT_EQ(info.name, "n");
  EXPECT_FALSE(info.title.has_value());
  EXPECT_FALSE(info.website_url.has_value());
  EXPECT_TRUE(info.icons.empty());
}

TEST(InitializeRequest, MissingProtocolVersionNamesField) {
  auto params = good_initialize_params();
  params.erase("protocolVersion");
  expect_request_rejected(params, "/params/protocolVersion");
}

TEST(InitializeRequest, NonStringProtocolVersionNamesField) {
  for (const json::value& bad : {json::value(20250618), json::value(nullptr), json::value(json::array{})}) {
    auto params = good_initialize_params();
    params["protocolVersion"] = bad;
    expect_request_rejected(params, "/params/protocolVersion");
  }
}

TEST(InitializeRequest, MissingCapabilitiesNamesField) {
  auto params = good_initialize_params();
  params.erase("capabilities");
  expect_request_rejected(params, "/params/capabilities");
}

TEST(InitializeRequest, NonObjectCapabilitiesNamesField) {
  for (const json::value& bad : {json::value("all"), json::value(nullptr), json::value(json::array{})}) {
    auto params = good_initialize_params();
    params["capabilities"] = bad;
    expect_request_rejected(params, "/params/capabilities");
  }
}

TEST(InitializeRequest, MissingClientInfoNamesField) {
  auto params = good_initialize_params();
  params.erase("clientInfo");
  expect_request_rejected(params, "/params/clientInfo");
}

TEST(InitializeRequest, NonObjectClientInfoNamesField) {
  for (const json::value& bad : {json::value("client"), json::value(nullptr), json::value(1)}) {
    auto params = good_initialize_params();
    params["clientInfo"] = bad;
    expect_request_rejected(params, "/params/clientInfo");
  }
}

TEST(InitializeRequest, ClientInfoMissingOrNonStringNameNamesField) {
  auto params = good_initialize_params();
  params["clientInfo"].as_object().erase("name");
  expect_request_rejected(params, "/params/clientInfo/name");
  params["clientInfo"].as_object()["name"] = 42;
  expect_request_rejected(params, "/params/clientInfo/name");
}

TEST(InitializeRequest, ClientInfoMissingOrNonStringVersionNamesField) {
  auto params = good_initialize_params();
  params["clientInfo"].as_object().erase("version");
  expect_request_rejected(params, "/params/clientInfo/version");
  params["clientInfo"].as_object()["version"] = json::object{};
  expect_request_rejected(params, "/params/clientInfo/version");
}

TEST(InitializeRequest, EmptyParamsNameTheFirstMissingField) {
  expect_request_rejected(json::object{}, "/params/protocolVersion");
}

TEST(InitializeRequest, ToJsonRoundTripsThroughParse) {
  initialize_request req{"2025-11-25", json::object{{"elicitation", json::object{}}},
                         full_implementation()};
  const auto back = parse_initialize_request(to_json(req));
  EXPECT_EQ(back.protocol_version, req.protocol_version);
  EXPECT_EQ(back.capabilities, req.capabilities);
  EXPECT_EQ(back.client_info.name, "impl");
  EXPECT_EQ(back.client_info.title, "Impl Title");
  EXPECT_EQ(back.client_info.description, "An implementation");
  EXPECT_EQ(back.client_info.website_url, "https://example.com");
  EXPECT_EQ(back.client_info.icons, req.client_info.icons);
}

TEST(InitializeRequest, ToJsonShapesClientInfoForTheRequestedVersion) {
  initialize_request req{"2024-11-05", {}, full_implementation()};
  auto out = to_json(req);
  EXPECT_EQ(out.at("protocolVersion"), "2024-11-05");
  EXPECT_EQ(out.at("clientInfo"), (json::object{{"name", "impl"}, {"version", "9.9"}}));
  // An unknown requested version is shaped as the latest legacy revision.
  req.protocol_version = "2099-01-01";
  out = to_json(req);
  EXPECT_EQ(out.at("protocolVersion"), "2099-01-01");
  EXPECT_TRUE(out.at("clientInfo").as_object().contains("icons"));
}

// --- implementation shaping ---------------------------------------------------------

TEST(InitializeImplementation, DropsTitleBefore20250618) {
  const auto out = to_json(full_implementation(), dialect_of(v::v2024_11_05));
  EXPECT_EQ(out, (json::object{{"name", "impl"}, {"version", "9.9"}}));
  EXPECT_EQ(to_json(full_implementation(), dialect_of(v::v2025_03_26)), out);
}

TEST(InitializeImplementation, KeepsTitleButDropsDescriptionWebsiteIconsIn20250618) {
  const auto out = to_json(full_implementation(), dialect_of(v::v2025_06_18));
  EXPECT_EQ(out, (json::object{{"name", "impl"}, {"version", "9.9"}, {"title", "Impl Title"}}));
}

TEST(InitializeImplementation, KeepsEveryFieldFrom20251125) {
  for (auto version : {v::v2025_11_25, v::v2026_07_28}) {
    const auto out = to_json(full_implementation(), dialect_of(version));
    SCOPED_TRACE(json::serialize(out));
    EXPECT_EQ(out.size(), 6u);
    EXPECT_EQ(out.at("title"), "Impl Title");
    EXPECT_EQ(out.at("description"), "An implementation");
    EXPECT_EQ(out.at("websiteUrl"), "https://example.com");
    EXPECT_EQ(out.at("icons"), full_implementation().icons);
  }
}

TEST(InitializeImplementation, OmitsAbsentOptionalFields) {
  const auto out = to_json(implementation{"n", "1"}, dialect_of(v::v2025_11_25));
  EXPECT_EQ(out, (json::object{{"name", "n"}, {"version", "1"}}));
}

TEST(InitializeImplementation, ParseNamesTheGivenPath) {
  expect_invalid_params([] { parse_implementation(json::value(3), "/x/info"); }, "/x/info");
  expect_invalid_params([] { parse_implementation(json::object{{"version", "1"}}, "/x/info"); },
                        "/x/info/name");
}

// --- initialize result --------------------------------------------------------------

TEST(InitializeResult, ShapesServerInfoForNegotiatedVersion) {
  initialize_result result{v::v2024_11_05, json::object{{"tools", json::object{}}},
                           full_implementation(), std::nullopt};
  auto out = to_json(result);
  EXPECT_EQ(out.at("protocolVersion"), "2024-11-05");
  EXPECT_EQ(out.at("capabilities"), (json::object{{"tools", json::object{}}}));
  EXPECT_EQ(out.at("serverInfo"), (json::object{{"name", "impl"}, {"version", "9.9"}}));
  EXPECT_FALSE(out.contains("instructions"));

  result.version = v::v2025_06_18;
  out = to_json(result);
  EXPECT_EQ(out.at("protocolVersion"), "2025-06-18");
  EXPECT_EQ(out.at("serverInfo"),
            (json::object{{"name", "impl"}, {"version", "9.9"}, {"title", "Impl Title"}}));

  result.version = v::v2025_11_25;
  out = to_json(result);
  EXPECT_EQ(out.at("protocolVersion"), "2025-11-25");
  EXPECT_EQ(out.at("serverInfo").as_object().size(), 6u);
}

TEST(InitializeResult, WritesInstructionsOnlyWhenSet) {
  initialize_result result{v::v2025_03_26, {}, implementation{"s", "1"}, "read the docs"};
  auto out = to_json(result);
  EXPECT_EQ(out.at("instructions"), "read the docs");
  EXPECT_EQ(out.size(), 4u);
  result.instructions.reset();
  EXPECT_FALSE(to_json(result).contains("instructions"));
}

TEST(InitializeResult, ParsesWellFormedResult) {
  const auto result = parse_initialize_result(good_initialize_result(), legacy_versions());
  EXPECT_EQ(result.version, v::v2025_06_18);
  EXPECT_EQ(result.capabilities, (json::object{{"tools", json::object{{"listChanged", true}}}}));
  EXPECT_EQ(result.server_info.name, "srv");
  EXPECT_EQ(result.server_info.version, "0.1");
  EXPECT_EQ(result.instructions, "be nice");
}

TEST(InitializeResult, RoundTripsThroughParse) {
  for (auto version : legacy_versions()) {
    SCOPED_TRACE(to_string(version));
    initialize_result result{version, json::object{{"logging", json::object{}}},
                             full_implementation(), "hi"};
    const auto back = parse_initialize_result(to_json(result), legacy_versions());
    EXPECT_EQ(back.version, version);
    EXPECT_EQ(back.capabilities, result.capabilities);
    EXPECT_EQ(back.server_info.name, "impl");
    EXPECT_EQ(back.server_info.title.has_value(), dialect_of(version).titles);
    EXPECT_EQ(back.server_info.icons.empty(), !dialect_of(version).icons);
    EXPECT_EQ(back.instructions, "hi");
  }
}

// A server's answer the client cannot use is malformed_result, never the
// server's own error reply (protocol_error).
TEST(InitializeResult, RejectsVersionNotInSupportedList) {
  const std::array supported{v::v2025_06_18, v::v2025_11_25};
  try {
    parse_initialize_result(good_initialize_result("2025-03-26"), supported);
    FAIL() << "expected malformed_result";
  } catch (const malformed_result& e) {
    EXPECT_EQ(e.method(), "initialize");
    EXPECT_NE(std::string_view(e.what()).find("2025-03-26"), std::string_view::npos) << e.what();
  }
}

TEST(InitializeResult, RejectsUnknownVersion) {
  for (std::string_view version : {"2099-01-01", "", "2025-06-18 "}) {
    SCOPED_TRACE(version);
    EXPECT_THROW(parse_initialize_result(good_initialize_result(version), legacy_versions()),
                 malformed_result);
  }
}

TEST(InitializeResult, AcceptsEachSupportedVersion) {
  for (auto version : legacy_versions()) {
    const std::array only{version};
    EXPECT_EQ(parse_initialize_result(good_initialize_result(to_string(version)), only).version,
              version);
  }
}

TEST(InitializeResult, MalformedResultNamesField) {
  {
    auto result = good_initialize_result();
    result.erase("protocolVersion");
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/protocolVersion");
  }
  {
    auto result = good_initialize_result();
    result["protocolVersion"] = 20250618;
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/protocolVersion");
  }
  {
    auto result = good_initialize_result();
    result.erase("capabilities");
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/capabilities");
  }
  {
    auto result = good_initialize_result();
    result["capabilities"] = "none";
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/capabilities");
  }
  {
    auto result = good_initialize_result();
    result.erase("serverInfo");
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/serverInfo");
  }
  {
    auto result = good_initialize_result();
    result["serverInfo"].as_object().erase("name");
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/serverInfo/name");
  }
  {
    auto result = good_initialize_result();
    result["serverInfo"].as_object()["version"] = 1;
    expect_malformed([&] { parse_initialize_result(result, legacy_versions()); },
                          "/result/serverInfo/version");
  }
}

TEST(InitializeResult, IgnoresNonStringInstructions) {
  auto result = good_initialize_result();
  result["instructions"] = 5;
  EXPECT_FALSE(parse_initialize_result(result, legacy_versions()).instructions.has_value());
}

// --- the lifecycle state machine -----------------------------------------------------

TEST(Lifecycle, StartsAwaitingInitializeWithClientNotReady) {
  legacy_lifecycle lc;
  EXPECT_EQ(lc.current(), legacy_lifecycle::phase::awaiting_initialize);
  EXPECT_FALSE(lc.client_ready());
}

TEST(Lifecycle, OnlyPingAndInitializeAreAdmittedBeforeInitialize) {
  legacy_lifecycle lc;
  EXPECT_FALSE(lc.admit("ping").has_value());
  EXPECT_FALSE(lc.admit("initialize").has_value());
  for (std::string_view method : {"tools/list", "tools/call", "resources/read", "prompts/get",
                                  "logging/setLevel", "completion/complete", "", "Ping"}) {
    const auto refusal = lc.admit(method);
    ASSERT_TRUE(refusal.has_value()) << method;
    EXPECT_EQ(refusal->code, errc::invalid_request) << method;
    EXPECT_FALSE(refusal->message.empty());
    EXPECT_TRUE(refusal->data.is_null());
  }
}

TEST(Lifecycle, AdmitDoesNotChangeThePhase) {
  legacy_lifecycle lc;
  (void)lc.admit("initialize");
  (void)lc.admit("tools/list");
  EXPECT_EQ(lc.current(), legacy_lifecycle::phase::awaiting_initialize);
}

TEST(Lifecycle, InitializeIsAdmittedOnceThenInvalidRequest) {
  legacy_lifecycle lc;
  ASSERT_FALSE(lc.admit("initialize").has_value());
  lc.on_initialize_answered();
  EXPECT_EQ(lc.current(), legacy_lifecycle::phase::operating);
  const auto again = lc.admit("initialize");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->code, errc::invalid_request);
}

TEST(Lifecycle, EverythingButInitializeIsAdmittedWhenOperating) {
  legacy_lifecycle lc;
  lc.on_initialize_answered();
  for (std::string_view method : {"ping", "tools/list", "tools/call", "no/such/method"})
    EXPECT_FALSE(lc.admit(method).has_value()) << method;
}

TEST(Lifecycle, InitializedNotificationBeforeInitializeReplyDoesNotMakeClientReady) {
  legacy_lifecycle lc;
  lc.on_initialized_notification();
  EXPECT_FALSE(lc.client_ready());
  lc.on_initialize_answered();
  EXPECT_FALSE(lc.client_ready()) << "an early notification must not count later";
  lc.on_initialized_notification();
  EXPECT_TRUE(lc.client_ready());
}

TEST(Lifecycle, InitializedNotificationAfterReplyMakesClientReady) {
  legacy_lifecycle lc;
  lc.on_initialize_answered();
  EXPECT_FALSE(lc.client_ready());
  lc.on_initialized_notification();
  EXPECT_TRUE(lc.client_ready());
  lc.on_initialized_notification();  // a repeat changes nothing
  EXPECT_TRUE(lc.client_ready());
  EXPECT_EQ(lc.current(), legacy_lifecycle::phase::operating);
}

}  // namespace
