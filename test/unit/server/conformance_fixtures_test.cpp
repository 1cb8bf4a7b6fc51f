// The conformance server's fixtures (examples/conformance_fixtures.cpp),
// served over the in-memory transport and checked as the official
// conformance suite's server scenarios check them (protocol 2025-11-25, a
// client declaring sampling and elicitation, like the suite's).

#include "conformance_fixtures.hpp"

#include "server_harness.hpp"

#include <mcp/base64.hpp>

#include <array>
#include <map>
#include <set>

namespace mcp::test {
namespace {

constexpr std::string_view png_base64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr std::string_view wav_base64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

std::shared_ptr<server> conformance_server() {
  auto srv = std::make_shared<server>(implementation{"conformance-server", "1.0"});
  add_conformance_fixtures(*srv);
  return srv;
}

// The handshake of the suite's client: 2025-11-25, with sampling and elicitation.
asio::awaitable<json::value> connect(harness& h) {
  std::string version = "2025-11-25";
  json::object capabilities{{"sampling", json::object{}}, {"elicitation", json::object{}}};
  co_return co_await h.initialize(std::move(version), std::move(capabilities));
}

json::object tool_call(std::string name, json::object arguments) {
  return {{"name", std::move(name)}, {"arguments", std::move(arguments)}};
}

// The `result` of a tools/call with no arguments; fails the test on a JSON-RPC error.
asio::awaitable<json::object> call_tool(harness& h, int id, std::string name) {
  auto params = tool_call(std::move(name), {});
  auto reply = co_await h.call(id, "tools/call", std::move(params));
  EXPECT_EQ(error_code(reply), 0) << reply;
  co_return reply.at("result").as_object();
}

// Sends a request without waiting for its reply.
asio::awaitable<void> send(harness& h, int id, std::string method, json::object params) {
  auto frame = rpc_request(id, std::move(method), std::move(params));
  co_await write_json(*h.client, frame);
}

// Answers a request the server sent to the client.
asio::awaitable<void> answer(harness& h, const json::value& request, json::object result) {
  json::object reply{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", std::move(result)}};
  co_await write_json(*h.client, reply);
}

std::vector<json::object> with_method(const std::vector<json::value>& frames, std::string_view method) {
  std::vector<json::object> out;
  for (const auto& f : frames)
    if (const auto* m = f.as_object().if_contains("method"); m && m->is_string() && m->get_string() == method)
      out.push_back(f.as_object());
  return out;
}

const json::object& content_of(const json::object& message) { return message.at("content").as_object(); }

// ---- lifecycle, ping, logging/setLevel (server-initialize, ping, logging-set-level)

TEST(ConformanceFixtures, InitializeDeclaresEveryCapabilityTheScenariosUse) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    auto reply = co_await connect(h);
    const auto& result = reply.at("result").as_object();
    EXPECT_EQ(result.at("protocolVersion"), "2025-11-25");
    const auto& caps = result.at("capabilities").as_object();
    EXPECT_TRUE(caps.at("tools").is_object());
    EXPECT_EQ(caps.at("resources").at("subscribe"), true);
    EXPECT_EQ(caps.at("resources").at("listChanged"), true);
    EXPECT_TRUE(caps.at("prompts").is_object());
    EXPECT_TRUE(caps.at("logging").is_object());
    EXPECT_TRUE(caps.at("completions").is_object());
  });
}

TEST(ConformanceFixtures, PingAndSetLevelAnswerEmptyObjects) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto ping = co_await h.call(1, "ping");
    EXPECT_EQ(ping.at("result"), json::object{});
    json::object level{{"level", "info"}};
    auto set = co_await h.call(2, "logging/setLevel", level);
    EXPECT_EQ(set.at("result"), json::object{});
  });
}

// ---- tools-list, json-schema-2020-12

TEST(ConformanceFixtures, ToolsListHasEveryToolWithADescriptionAndAnObjectSchema) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto list = co_await h.call(1, "tools/list");
    const auto& result = list.at("result").as_object();
    EXPECT_FALSE(result.contains("nextCursor"));
    const std::set<std::string> no_argument_tools{
        "test_simple_text",           "test_image_content",
        "test_audio_content",         "test_embedded_resource",
        "test_multiple_content_types", "test_tool_with_logging",
        "test_tool_with_progress",    "test_error_handling",
        "test_reconnection",          "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums",
        // 2026-07-28 (conformance 0.2.0-alpha)
        "test_input_required_result_elicitation", "test_input_required_result_sampling",
        "test_input_required_result_list_roots", "test_input_required_result_request_state",
        "test_input_required_result_multiple_inputs", "test_input_required_result_multi_round",
        "test_input_required_result_tampered_state", "test_input_required_result_capabilities",
        "test_missing_capability", "test_streaming_elicitation", "test_logging_tool",
        "test_trigger_tool_change", "test_trigger_prompt_change"};
    std::set<std::string> names;
    for (const auto& value : result.at("tools").as_array()) {
      const auto& tool = value.as_object();
      const std::string name(tool.at("name").as_string());
      names.insert(name);
      EXPECT_FALSE(name.empty());
      EXPECT_TRUE(tool.contains("description") && tool.at("description").is_string() &&
                  !tool.at("description").as_string().empty())
          << name;
      const auto& schema = tool.at("inputSchema").as_object();
      EXPECT_EQ(schema.at("type"), "object") << name;
      if (no_argument_tools.contains(name)) {
        EXPECT_EQ(json::serialize(schema), R"({"type":"object","properties":{}})") << name;
      }
    }
    std::set<std::string> expected = no_argument_tools;
    expected.insert({"test_sampling", "test_elicitation", "json_schema_2020_12_tool", "test_x_mcp_header"});
    // The tasks scenarios' (the tasks extension, SEP-2663).
    expected.insert({"greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input",
                     "test_tool_with_task"});
    EXPECT_EQ(names, expected);
    const auto tools = result.at("tools").as_array();
    for (const auto& tool : tools) {
      if (tool.at("name") == "test_sampling") {
        EXPECT_EQ(tool.at("inputSchema").at("properties").at("prompt").at("type"), "string");
        EXPECT_EQ(tool.at("inputSchema").at("required"), (json::array{"prompt"}));
      }
      if (tool.at("name") == "test_elicitation") {
        EXPECT_EQ(tool.at("inputSchema").at("properties").at("message").at("type"), "string");
        EXPECT_EQ(tool.at("inputSchema").at("required"), (json::array{"message"}));
      }
    }
  });
}

TEST(ConformanceFixtures, JsonSchema2020ToolIsListedWithItsSchemaByteForByte) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto list = co_await h.call(1, "tools/list");
    const json::object* tool = nullptr;
    for (const auto& t : list.at("result").at("tools").as_array())
      if (t.at("name") == "json_schema_2020_12_tool") tool = &t.as_object();
    CO_ASSERT_TRUE(tool != nullptr);
    const auto& schema = tool->at("inputSchema").as_object();
    EXPECT_EQ(json::serialize(schema),
              R"({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",)"
              R"("$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},)"
              R"("properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false})");
    // The scenario's four checks.
    EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_TRUE(schema.at("$defs").at("address").is_object());
    EXPECT_EQ(schema.at("additionalProperties"), false);
    EXPECT_FALSE(tool->at("description").as_string().empty());
  });
}

TEST(ConformanceFixtures, JsonSchema2020ToolEchoesItsArguments) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object args{{"name", "Ada"}, {"address", {{"street", "1 Main St"}, {"city", "London"}}}};
    auto params = tool_call("json_schema_2020_12_tool", args);
    auto reply = co_await h.call(1, "tools/call", params);
    EXPECT_EQ(first_text(reply.at("result").as_object()),
              R"(JSON Schema 2020-12 tool called with: {"name":"Ada","address":{"street":"1 Main St","city":"London"}})");
  });
}

// ---- tools-call-* with content

TEST(ConformanceFixtures, SimpleTextToolAnswersACallWithoutArguments) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"name", "test_simple_text"}};  // no `arguments`, as the scenario calls it
    auto reply = co_await h.call(1, "tools/call", params);
    const auto& result = reply.at("result").as_object();
    EXPECT_EQ(result.at("content"),
              (json::array{{{"type", "text"}, {"text", "This is a simple text response for testing."}}}));
    EXPECT_FALSE(result.contains("isError"));
  });
}

TEST(ConformanceFixtures, ImageAndAudioToolsReturnBase64WithTheirMimeTypes) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto image = co_await call_tool(h, 1, "test_image_content");
    EXPECT_EQ(image.at("content"),
              (json::array{{{"type", "image"}, {"data", png_base64}, {"mimeType", "image/png"}}}));
    const auto png = base64_decode(png_base64);
    CO_ASSERT_TRUE(png.has_value());
    EXPECT_TRUE(png->starts_with("\x89PNG"));
    auto audio = co_await call_tool(h, 2, "test_audio_content");
    EXPECT_EQ(audio.at("content"),
              (json::array{{{"type", "audio"}, {"data", wav_base64}, {"mimeType", "audio/wav"}}}));
    const auto wav = base64_decode(wav_base64);
    CO_ASSERT_TRUE(wav.has_value());
    EXPECT_TRUE(wav->starts_with("RIFF"));
  });
}

TEST(ConformanceFixtures, EmbeddedResourceToolReturnsAResourceBlock) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto result = co_await call_tool(h, 1, "test_embedded_resource");
    const json::object resource{{"uri", "test://embedded-resource"},
                                {"mimeType", "text/plain"},
                                {"text", "This is an embedded resource content."}};
    EXPECT_EQ(result.at("content"), (json::array{{{"type", "resource"}, {"resource", resource}}}));
  });
}

TEST(ConformanceFixtures, MixedContentToolReturnsTextImageAndResource) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto result = co_await call_tool(h, 1, "test_multiple_content_types");
    const auto& content = result.at("content").as_array();
    CO_ASSERT_TRUE(content.size() == 3u);
    EXPECT_EQ(content.at(0), (json::object{{"type", "text"}, {"text", "Multiple content types test:"}}));
    EXPECT_EQ(content.at(1), (json::object{{"type", "image"}, {"data", png_base64}, {"mimeType", "image/png"}}));
    EXPECT_EQ(content.at(2).at("type"), "resource");
    const auto& resource = content.at(2).at("resource").as_object();
    EXPECT_EQ(resource.at("uri"), "test://mixed-content-resource");
    EXPECT_EQ(resource.at("mimeType"), "application/json");
    EXPECT_EQ(resource.at("text"), R"({"test":"data","value":123})");
  });
}

TEST(ConformanceFixtures, ErrorToolReturnsAnErrorResultNotAJsonRpcError) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto result = co_await call_tool(h, 1, "test_error_handling");
    EXPECT_EQ(result.at("isError"), true);
    EXPECT_EQ(result.at("content"),
              (json::array{{{"type", "text"}, {"text", "This tool intentionally returns an error for testing"}}}));
  });
}

TEST(ConformanceFixtures, ReconnectionToolAnswersWithText) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto result = co_await call_tool(h, 1, "test_reconnection");
    EXPECT_NE(first_text(result).find("Reconnection test completed successfully"), std::string::npos);
  });
}

// ---- tools-call-with-logging, tools-call-with-progress

TEST(ConformanceFixtures, LoggingToolSendsThreeInfoMessagesBeforeItsResult) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object debug{{"level", "debug"}};
    auto set = co_await h.call(1, "logging/setLevel", debug);
    EXPECT_EQ(set.at("result"), json::object{});
    const auto started = std::chrono::steady_clock::now();
    auto call = tool_call("test_tool_with_logging", json::object());
    co_await send(h, 2, "tools/call", std::move(call));
    std::vector<json::value> before;
    auto reply = co_await h.reply_to(2, &before);
    const auto elapsed = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(first_text(reply.at("result").as_object()), "Tool with logging executed successfully");
    const auto messages = with_method(before, "notifications/message");
    CO_ASSERT_TRUE(messages.size() == 3u);
    const std::array<const char*, 3> data{"Tool execution started", "Tool processing data",
                                               "Tool execution completed"};
    for (std::size_t i = 0; i < messages.size(); ++i) {
      EXPECT_EQ(messages[i].at("params").at("level"), "info");
      EXPECT_EQ(messages[i].at("params").at("data"), json::value(data[i]));
    }
    EXPECT_GE(elapsed, 90ms);  // ~50 ms between the messages
  });
}

TEST(ConformanceFixtures, ProgressToolReportsZeroFiftyHundredOfHundredBeforeItsResult) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto params = tool_call("test_tool_with_progress", {});
    params["_meta"] = json::object{{"progressToken", "progress-test-1"}};
    const auto started = std::chrono::steady_clock::now();
    co_await send(h, 1, "tools/call", std::move(params));
    std::vector<json::value> before;
    auto reply = co_await h.reply_to(1, &before);
    const auto elapsed = std::chrono::steady_clock::now() - started;
    EXPECT_EQ(first_text(reply.at("result").as_object()), "progress-test-1");
    const auto progress = with_method(before, "notifications/progress");
    CO_ASSERT_TRUE(progress.size() == 3u);
    const std::array<double, 3> expected{0, 50, 100};
    for (std::size_t i = 0; i < progress.size(); ++i) {
      const auto& p = progress[i].at("params");
      EXPECT_EQ(p.at("progressToken"), "progress-test-1");
      EXPECT_EQ(p.at("progress").to_number<double>(), expected[i]);
      EXPECT_EQ(p.at("total").to_number<double>(), 100.0);
    }
    EXPECT_GE(elapsed, 90ms);  // ~50 ms between the steps
  });
}

TEST(ConformanceFixtures, ProgressToolWithoutATokenSendsNoProgress) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto call = tool_call("test_tool_with_progress", json::object());
    co_await send(h, 1, "tools/call", std::move(call));
    std::vector<json::value> before;
    auto reply = co_await h.reply_to(1, &before);
    EXPECT_TRUE(before.empty());
    EXPECT_EQ(first_text(reply.at("result").as_object()), "No progress token");
  });
}

// ---- tools-call-sampling, tools-call-elicitation, elicitation-sep1034-defaults, elicitation-sep1330-enums

TEST(ConformanceFixtures, SamplingToolAsksTheClientAndQuotesItsAnswer) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object args{{"prompt", "Test prompt for sampling"}};
    auto call = tool_call("test_sampling", args);
    co_await send(h, 1, "tools/call", std::move(call));
    auto request = co_await read_json(*h.client);
    EXPECT_EQ(request.at("method"), "sampling/createMessage");
    const auto& params = request.at("params").as_object();
    const json::object message{{"role", "user"},
                               {"content", {{"type", "text"}, {"text", "Test prompt for sampling"}}}};
    EXPECT_EQ(params.at("messages"), (json::array{message}));
    EXPECT_EQ(params.at("maxTokens"), 100);
    json::object sampled{{"role", "assistant"},
                         {"content", {{"type", "text"}, {"text", "This is a test response"}}},
                         {"model", "test-model"}};
    co_await answer(h, request, std::move(sampled));
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(first_text(reply.at("result").as_object()), "LLM response: This is a test response");
  });
}

TEST(ConformanceFixtures, ElicitationToolSendsAFormWithTheGivenMessage) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object args{{"message", "Please provide your information"}};
    auto call = tool_call("test_elicitation", args);
    co_await send(h, 1, "tools/call", std::move(call));
    auto request = co_await read_json(*h.client);
    EXPECT_EQ(request.at("method"), "elicitation/create");
    const auto& params = request.at("params").as_object();
    EXPECT_EQ(params.at("message"), "Please provide your information");
    EXPECT_EQ(params.at("mode"), "form");
    const auto& schema = params.at("requestedSchema").as_object();
    EXPECT_EQ(schema.at("type"), "object");
    EXPECT_EQ(schema.at("properties").at("response").at("type"), "string");
    EXPECT_EQ(schema.at("required"), (json::array{"response"}));
    json::object accepted{{"action", "accept"}, {"content", {{"response", "hello"}}}};
    co_await answer(h, request, std::move(accepted));
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(first_text(reply.at("result").as_object()),
              R"(User response: action=accept, content={"response":"hello"})");
  });
}

TEST(ConformanceFixtures, ElicitationWithoutContentIsReportedAsAnEmptyObject) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object args{{"message", "Anything?"}};
    auto call = tool_call("test_elicitation", args);
    co_await send(h, 1, "tools/call", std::move(call));
    auto request = co_await read_json(*h.client);
    json::object declined{{"action", "decline"}};
    co_await answer(h, request, std::move(declined));
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(first_text(reply.at("result").as_object()), "User response: action=decline, content={}");
  });
}

TEST(ConformanceFixtures, Sep1034ToolElicitsADefaultForEveryPrimitiveType) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto call = tool_call("test_elicitation_sep1034_defaults", json::object());
    co_await send(h, 1, "tools/call", std::move(call));
    auto request = co_await read_json(*h.client);
    EXPECT_EQ(request.at("method"), "elicitation/create");
    EXPECT_EQ(request.at("params").at("mode"), "form");
    const auto& schema = request.at("params").at("requestedSchema").as_object();
    EXPECT_EQ(schema.at("type"), "object");
    EXPECT_EQ(schema.at("required"), json::array{});
    const auto& p = schema.at("properties").as_object();
    EXPECT_EQ(p.size(), 5u);
    EXPECT_EQ(p.at("name").at("type"), "string");
    EXPECT_EQ(p.at("name").at("default"), "John Doe");
    EXPECT_EQ(p.at("age").at("type"), "integer");
    EXPECT_EQ(p.at("age").at("default"), 30);
    EXPECT_EQ(p.at("score").at("type"), "number");
    EXPECT_EQ(p.at("score").at("default").to_number<double>(), 95.5);
    EXPECT_EQ(p.at("status").at("type"), "string");
    EXPECT_EQ(p.at("status").at("enum"), (json::array{"active", "inactive", "pending"}));
    EXPECT_EQ(p.at("status").at("default"), "active");
    EXPECT_EQ(p.at("verified").at("type"), "boolean");
    EXPECT_EQ(p.at("verified").at("default"), true);
    json::object accepted{{"action", "accept"}, {"content", {{"name", "John Doe"}, {"age", 30}}}};
    co_await answer(h, request, std::move(accepted));
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(first_text(reply.at("result").as_object()),
              R"(Elicitation completed: action=accept, content={"name":"John Doe","age":30})");
  });
}

TEST(ConformanceFixtures, Sep1330ToolElicitsTheFiveEnumVariants) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto call = tool_call("test_elicitation_sep1330_enums", json::object());
    co_await send(h, 1, "tools/call", std::move(call));
    auto request = co_await read_json(*h.client);
    EXPECT_EQ(request.at("method"), "elicitation/create");
    const auto& p = request.at("params").at("requestedSchema").at("properties").as_object();
    const auto titled = [](const json::value& options) {
      if (!options.is_array() || options.as_array().empty()) return false;
      for (const auto& o : options.as_array())
        if (!o.is_object() || !o.as_object().contains("const") || !o.at("const").is_string() ||
            !o.as_object().contains("title") || !o.at("title").is_string())
          return false;
      return true;
    };
    const auto& untitled_single = p.at("untitledSingle").as_object();
    EXPECT_EQ(untitled_single.at("type"), "string");
    EXPECT_EQ(untitled_single.at("enum"), (json::array{"option1", "option2", "option3"}));
    EXPECT_FALSE(untitled_single.contains("oneOf"));
    EXPECT_FALSE(untitled_single.contains("enumNames"));

    const auto& titled_single = p.at("titledSingle").as_object();
    EXPECT_EQ(titled_single.at("type"), "string");
    EXPECT_TRUE(titled(titled_single.at("oneOf")));
    EXPECT_EQ(titled_single.at("oneOf").at(0), (json::object{{"const", "value1"}, {"title", "First Option"}}));
    EXPECT_FALSE(titled_single.contains("enum"));

    const auto& legacy = p.at("legacyEnum").as_object();
    EXPECT_EQ(legacy.at("type"), "string");
    EXPECT_EQ(legacy.at("enum"), (json::array{"opt1", "opt2", "opt3"}));
    EXPECT_EQ(legacy.at("enumNames"), (json::array{"Option One", "Option Two", "Option Three"}));

    const auto& untitled_multi = p.at("untitledMulti").as_object();
    EXPECT_EQ(untitled_multi.at("type"), "array");
    EXPECT_EQ(untitled_multi.at("items").at("type"), "string");
    EXPECT_EQ(untitled_multi.at("items").at("enum"), (json::array{"option1", "option2", "option3"}));
    EXPECT_FALSE(untitled_multi.at("items").as_object().contains("anyOf"));

    const auto& titled_multi = p.at("titledMulti").as_object();
    EXPECT_EQ(titled_multi.at("type"), "array");
    EXPECT_TRUE(titled(titled_multi.at("items").at("anyOf")));
    EXPECT_EQ(titled_multi.at("items").at("anyOf").at(2), (json::object{{"const", "value3"}, {"title", "Third Choice"}}));
    EXPECT_FALSE(titled_multi.at("items").as_object().contains("enum"));

    // The content the suite's client answers with.
    json::object content{{"untitledSingle", "option1"},
                         {"titledSingle", "value1"},
                         {"legacyEnum", "opt1"},
                         {"untitledMulti", json::array{"option1", "option2"}},
                         {"titledMulti", json::array{"value1", "value2"}}};
    json::object accepted{{"action", "accept"}, {"content", content}};
    co_await answer(h, request, std::move(accepted));
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(first_text(reply.at("result").as_object()),
              "Elicitation completed: action=accept, content=" + json::serialize(content));
  });
}

// ---- resources-*

TEST(ConformanceFixtures, ResourcesAndTheTemplateAreListedWithUriAndName) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto list = co_await h.call(1, "resources/list");
    std::map<std::string, std::string> names;  // uri -> name
    for (const auto& r : list.at("result").at("resources").as_array()) {
      EXPECT_FALSE(r.at("description").as_string().empty());
      names[std::string(r.at("uri").as_string())] = r.at("name").as_string();
    }
    const std::map<std::string, std::string> expected{{"test://static-text", "static-text"},
                                                      {"test://static-binary", "static-binary"},
                                                      {"test://watched-resource", "watched-resource"}};
    EXPECT_EQ(names, expected);
    auto templates = co_await h.call(2, "resources/templates/list");
    const auto& listed = templates.at("result").at("resourceTemplates").as_array();
    CO_ASSERT_TRUE(listed.size() == 1u);
    EXPECT_EQ(listed.at(0).at("uriTemplate"), "test://template/{id}/data");
    EXPECT_EQ(listed.at(0).at("name"), "template");
    EXPECT_EQ(listed.at(0).at("mimeType"), "application/json");
  });
}

TEST(ConformanceFixtures, ReadsTheStaticTextAndBinaryResources) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object text_params{{"uri", "test://static-text"}};
    auto text = co_await h.call(1, "resources/read", text_params);
    EXPECT_EQ(text.at("result").at("contents"),
              (json::array{{{"uri", "test://static-text"},
                            {"mimeType", "text/plain"},
                            {"text", "This is the content of the static text resource."}}}));
    json::object binary_params{{"uri", "test://static-binary"}};
    auto binary = co_await h.call(2, "resources/read", binary_params);
    EXPECT_EQ(binary.at("result").at("contents"),
              (json::array{{{"uri", "test://static-binary"}, {"mimeType", "image/png"}, {"blob", png_base64}}}));
  });
}

TEST(ConformanceFixtures, ReadsTheTemplateWithTheIdOfTheUri) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"uri", "test://template/123/data"}};
    auto reply = co_await h.call(1, "resources/read", params);
    const auto& contents = reply.at("result").at("contents").as_array();
    CO_ASSERT_TRUE(contents.size() == 1u);
    EXPECT_EQ(contents.at(0).at("uri"), "test://template/123/data");
    EXPECT_EQ(contents.at(0).at("mimeType"), "application/json");
    EXPECT_EQ(contents.at(0).at("text"), R"({"id":"123","templateTest":true,"data":"Data for ID: 123"})");
  });
}

TEST(ConformanceFixtures, WatchedResourceIsReadableSubscribableAndUnsubscribable) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"uri", "test://watched-resource"}};
    auto subscribed = co_await h.call(1, "resources/subscribe", params);
    EXPECT_EQ(subscribed.at("result"), json::object{});
    auto unsubscribed = co_await h.call(2, "resources/unsubscribe", params);
    EXPECT_EQ(unsubscribed.at("result"), json::object{});
    auto read = co_await h.call(3, "resources/read", params);
    EXPECT_EQ(read.at("result").at("contents").at(0).at("text"), "Watched resource content");
  });
}

// ---- prompts-*

TEST(ConformanceFixtures, PromptsAreListedWithDescriptionsAndTheirArguments) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    auto list = co_await h.call(1, "prompts/list");
    std::map<std::string, std::vector<std::string>> required;  // prompt -> required arguments
    for (const auto& value : list.at("result").at("prompts").as_array()) {
      const auto& prompt = value.as_object();
      const std::string name(prompt.at("name").as_string());
      EXPECT_FALSE(prompt.at("description").as_string().empty()) << name;
      auto& args = required[name];
      if (const auto* arguments = prompt.if_contains("arguments"))
        for (const auto& a : arguments->as_array())
          if (a.as_object().contains("required") && a.at("required") == true)
            args.emplace_back(a.at("name").as_string());
    }
    const std::map<std::string, std::vector<std::string>> expected{
        {"test_simple_prompt", {}},
        {"test_prompt_with_arguments", {"arg1", "arg2"}},
        {"test_prompt_with_embedded_resource", {"resourceUri"}},
        {"test_prompt_with_image", {}},
        {"test_input_required_result_prompt", {}}};
    EXPECT_EQ(required, expected);
  });
}

TEST(ConformanceFixtures, SimplePromptNeedsNoArguments) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"name", "test_simple_prompt"}};  // no `arguments`
    auto reply = co_await h.call(1, "prompts/get", params);
    EXPECT_EQ(reply.at("result").at("messages"),
              (json::array{{{"role", "user"},
                            {"content", {{"type", "text"}, {"text", "This is a simple prompt for testing."}}}}}));
  });
}

TEST(ConformanceFixtures, PromptWithArgumentsQuotesBothValues) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"name", "test_prompt_with_arguments"},
                        {"arguments", {{"arg1", "testValue1"}, {"arg2", "testValue2"}}}};
    auto reply = co_await h.call(1, "prompts/get", params);
    const auto& messages = reply.at("result").at("messages").as_array();
    CO_ASSERT_TRUE(messages.size() == 1u);
    EXPECT_EQ(messages.at(0).at("role"), "user");
    EXPECT_EQ(content_of(messages.at(0).as_object()).at("text"),
              "Prompt with arguments: arg1='testValue1', arg2='testValue2'");
  });
}

TEST(ConformanceFixtures, PromptWithEmbeddedResourceEmbedsTheGivenUri) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"name", "test_prompt_with_embedded_resource"},
                        {"arguments", {{"resourceUri", "test://example-resource"}}}};
    auto reply = co_await h.call(1, "prompts/get", params);
    const auto& messages = reply.at("result").at("messages").as_array();
    CO_ASSERT_TRUE(messages.size() == 2u);
    const json::object resource{{"uri", "test://example-resource"},
                                {"mimeType", "text/plain"},
                                {"text", "Embedded resource content for testing."}};
    EXPECT_EQ(messages.at(0).at("role"), "user");
    EXPECT_EQ(content_of(messages.at(0).as_object()),
              (json::object{{"type", "resource"}, {"resource", resource}}));
    EXPECT_EQ(content_of(messages.at(1).as_object()),
              (json::object{{"type", "text"}, {"text", "Please process the embedded resource above."}}));
  });
}

TEST(ConformanceFixtures, PromptWithImageSendsThePngThenText) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"name", "test_prompt_with_image"}};
    auto reply = co_await h.call(1, "prompts/get", params);
    const auto& messages = reply.at("result").at("messages").as_array();
    CO_ASSERT_TRUE(messages.size() == 2u);
    EXPECT_EQ(messages.at(0).at("role"), "user");
    EXPECT_EQ(content_of(messages.at(0).as_object()),
              (json::object{{"type", "image"}, {"data", png_base64}, {"mimeType", "image/png"}}));
    EXPECT_EQ(content_of(messages.at(1).as_object()),
              (json::object{{"type", "text"}, {"text", "Please analyze the image above."}}));
  });
}

// ---- completion-complete

TEST(ConformanceFixtures, CompletionOfAPromptArgumentReturnsAValuesArray) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, conformance_server());
    co_await connect(h);
    json::object params{{"ref", {{"type", "ref/prompt"}, {"name", "test_prompt_with_arguments"}}},
                        {"argument", {{"name", "arg1"}, {"value", "test"}}}};
    auto reply = co_await h.call(1, "completion/complete", params);
    EXPECT_EQ(reply.at("result").at("completion"),
              (json::object{{"values", json::array{}}, {"total", 0}, {"hasMore", false}}));
  });
}

}  // namespace
}  // namespace mcp::test
