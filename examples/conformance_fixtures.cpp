// The fixtures of the official MCP conformance suite (see the header). The
// names, texts, payloads and schemas below are what the suite's scenarios
// look for: keep them exactly as they are.

#include "conformance_fixtures.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <array>
#include <chrono>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

namespace asio = boost::asio;
namespace json = boost::json;
using namespace std::chrono_literals;
using mcp::call_tool_result;
using mcp::request_context;
using contents_list = std::vector<mcp::resource_contents>;

// A 1x1 PNG and a minimal WAV, base64: the reference server's payloads.
constexpr std::string_view png_base64 =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
constexpr std::string_view wav_base64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

// The pause between the log messages, and between the progress steps, of a call.
constexpr std::chrono::milliseconds step_spacing = 50ms;

constexpr std::string_view no_arguments = R"json({"type":"object","properties":{}})json";

// SEP-1613: `json-schema-2020-12` checks that $schema, $defs and
// additionalProperties reach the client untouched.
constexpr std::string_view json_schema_2020_12 =
    R"json({"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",)json"
    R"json("$defs":{"address":{"type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},)json"
    R"json("properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},"additionalProperties":false})json";

// SEP-1034: a default for every primitive type (`elicitation-sep1034-defaults`).
constexpr std::string_view sep1034_schema = R"json({"type":"object","properties":{
  "name":{"type":"string","description":"User name","default":"John Doe"},
  "age":{"type":"integer","description":"User age","default":30},
  "score":{"type":"number","description":"User score","default":95.5},
  "status":{"type":"string","description":"User status","enum":["active","inactive","pending"],"default":"active"},
  "verified":{"type":"boolean","description":"Verification status","default":true}},
  "required":[]})json";

// SEP-1330: the five enum variants (`elicitation-sep1330-enums`).
constexpr std::string_view sep1330_schema = R"json({"type":"object","properties":{
  "untitledSingle":{"type":"string","description":"Select one option","enum":["option1","option2","option3"]},
  "titledSingle":{"type":"string","description":"Select one option with titles","oneOf":[
    {"const":"value1","title":"First Option"},{"const":"value2","title":"Second Option"},
    {"const":"value3","title":"Third Option"}]},
  "legacyEnum":{"type":"string","description":"Select one option (legacy)","enum":["opt1","opt2","opt3"],
    "enumNames":["Option One","Option Two","Option Three"]},
  "untitledMulti":{"type":"array","description":"Select multiple options","minItems":1,"maxItems":3,
    "items":{"type":"string","enum":["option1","option2","option3"]}},
  "titledMulti":{"type":"array","description":"Select multiple options with titles","minItems":1,"maxItems":3,
    "items":{"anyOf":[{"const":"value1","title":"First Choice"},{"const":"value2","title":"Second Choice"},
                      {"const":"value3","title":"Third Choice"}]}}},
  "required":[]})json";

json::object parse_object(std::string_view text) { return json::parse(text).as_object(); }

asio::awaitable<void> pause(std::chrono::milliseconds duration) {
  asio::steady_timer timer(co_await asio::this_coro::executor);
  timer.expires_after(duration);
  co_await timer.async_wait(asio::use_awaitable);
}

// A required string argument. A missing one is a tool execution error (an
// exception thrown by a handler becomes an `isError` result), which a model
// can correct.
std::string string_argument(const json::object& args, std::string_view name) {
  const auto* value = args.if_contains(name);
  if (!value || !value->is_string()) throw std::invalid_argument(std::string(name) + " must be a string");
  return std::string(value->get_string());
}

// "action=<action>, content=<JSON>", as the reference server words an ElicitResult.
std::string describe_elicitation(const json::object& result) {
  const auto* action = result.if_contains("action");
  const auto* content = result.if_contains("content");
  std::string text = "action=";
  if (action && action->is_string()) text += action->get_string();
  text += ", content=";
  text += content && !content->is_null() ? json::serialize(*content) : std::string("{}");
  return text;
}

// The text of a CreateMessageResult: its `content` is one block, or (2025-11-25) an array of them.
std::string sampled_text(const json::object& result) {
  const auto* content = result.if_contains("content");
  if (content && content->is_array()) {
    for (const auto& block : content->get_array())
      if (block.is_object() && block.get_object().contains("text")) {
        content = &block;
        break;
      }
  }
  if (content && content->is_object())
    if (const auto* text = content->get_object().if_contains("text"); text && text->is_string())
      return std::string(text->get_string());
  return "No response";
}

// ---- tools

asio::awaitable<call_tool_result> simple_text(const json::object&, request_context&) {
  co_return call_tool_result::text("This is a simple text response for testing.");
}

asio::awaitable<call_tool_result> image_content(const json::object&, request_context&) {
  call_tool_result result;
  result.content.push_back(mcp::content::image(std::string(png_base64), "image/png"));
  co_return result;
}

asio::awaitable<call_tool_result> audio_content(const json::object&, request_context&) {
  call_tool_result result;
  result.content.push_back(mcp::content::audio(std::string(wav_base64), "audio/wav"));
  co_return result;
}

asio::awaitable<call_tool_result> embedded_resource(const json::object&, request_context&) {
  call_tool_result result;
  result.content.push_back(mcp::content::embedded_text(
      "test://embedded-resource", "This is an embedded resource content.", "text/plain"));
  co_return result;
}

asio::awaitable<call_tool_result> multiple_content_types(const json::object&, request_context&) {
  call_tool_result result;
  result.content.push_back(mcp::content::text("Multiple content types test:"));
  result.content.push_back(mcp::content::image(std::string(png_base64), "image/png"));
  result.content.push_back(mcp::content::embedded_text(
      "test://mixed-content-resource", R"json({"test":"data","value":123})json", "application/json"));
  co_return result;
}

asio::awaitable<call_tool_result> tool_with_logging(const json::object&, request_context& ctx) {
  constexpr std::array<std::string_view, 3> messages{"Tool execution started", "Tool processing data",
                                                     "Tool execution completed"};
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (i > 0) co_await pause(step_spacing);
    json::value data = json::string(messages[i]);
    co_await ctx.log(mcp::logging_level::info, std::move(data));
  }
  co_return call_tool_result::text("Tool with logging executed successfully");
}

asio::awaitable<call_tool_result> tool_with_progress(const json::object&, request_context& ctx) {
  // Without a `_meta.progressToken` the steps still run; ctx.progress then sends nothing.
  const auto* token = ctx.meta().if_contains("progressToken");
  std::string token_text = "No progress token";
  if (token) token_text = token->is_string() ? std::string(token->get_string()) : json::serialize(*token);
  constexpr std::array<int, 3> steps{0, 50, 100};
  const std::optional<double> total = 100.0;
  for (const int step : steps) {
    if (step > 0) co_await pause(step_spacing);
    const std::string message = "Completed step " + std::to_string(step) + " of 100";
    const double value = step;
    co_await ctx.progress(value, total, message);
  }
  // The TypeScript SDK client handles a notification a microtask after reading
  // it, and forgets a request's progress handler as soon as its response is
  // read: the last step would be lost if it arrived in the same read as the
  // result (as it does over stdio). A last pause keeps them apart.
  co_await pause(step_spacing);
  co_return call_tool_result::text(token_text);
}

asio::awaitable<call_tool_result> error_handling(const json::object&, request_context&) {
  co_return call_tool_result::error("This tool intentionally returns an error for testing");
}

// SEP-1699 (pending scenario `server-sse-polling`): over Streamable HTTP the
// server is to close the POST's SSE stream mid-call and deliver this result
// on the client's resumed GET stream. Without that transport it simply answers.
// Lets the connection of its SSE stream go mid-call; the result reaches the
// client on the stream it resumes with GET and Last-Event-ID.
asio::awaitable<call_tool_result> reconnection(const json::object&, request_context& ctx) {
  ctx.close_stream();
  asio::steady_timer pause(co_await asio::this_coro::executor, std::chrono::milliseconds(100));
  co_await pause.async_wait(asio::use_awaitable);
  co_return call_tool_result::text(
      "Reconnection test completed successfully. If you received this, the client properly "
      "reconnected after stream closure.");
}

asio::awaitable<call_tool_result> sampling(const json::object& args, request_context& ctx) {
  const auto prompt = string_argument(args, "prompt");
  json::object content{{"type", "text"}, {"text", prompt}};
  json::object message{{"role", "user"}, {"content", std::move(content)}};
  json::object params{{"messages", json::array{std::move(message)}}, {"maxTokens", 100}};
  const auto reply = co_await ctx.sample(std::move(params));
  co_return call_tool_result::text("LLM response: " + sampled_text(reply));
}

asio::awaitable<call_tool_result> elicitation(const json::object& args, request_context& ctx) {
  auto message = string_argument(args, "message");
  auto schema = parse_object(
      R"json({"type":"object","properties":{"response":{"type":"string","description":"User's response"}},)json"
      R"json("required":["response"]})json");
  const auto reply = co_await ctx.elicit(std::move(message), std::move(schema));
  co_return call_tool_result::text("User response: " + describe_elicitation(reply));
}

asio::awaitable<call_tool_result> elicitation_sep1034_defaults(const json::object&, request_context& ctx) {
  std::string message = "Please review and update the form fields with defaults";
  auto schema = parse_object(sep1034_schema);
  const auto reply = co_await ctx.elicit(std::move(message), std::move(schema));
  co_return call_tool_result::text("Elicitation completed: " + describe_elicitation(reply));
}

asio::awaitable<call_tool_result> elicitation_sep1330_enums(const json::object&, request_context& ctx) {
  std::string message = "Please select options from the enum fields";
  auto schema = parse_object(sep1330_schema);
  const auto reply = co_await ctx.elicit(std::move(message), std::move(schema));
  co_return call_tool_result::text("Elicitation completed: " + describe_elicitation(reply));
}

asio::awaitable<call_tool_result> json_schema_tool(const json::object& args, request_context&) {
  co_return call_tool_result::text("JSON Schema 2020-12 tool called with: " + json::serialize(args));
}

void add_tool(mcp::server& server, std::string name, std::string description, std::string_view input_schema,
              mcp::tool_handler handler) {
  mcp::tool_info info{std::move(name), std::move(description)};
  info.input_schema = parse_object(input_schema);
  server.add_tool(std::move(info), std::move(handler));
}

// ---- resources

asio::awaitable<contents_list> read_static_text(const std::string& uri, request_context&) {
  auto contents = mcp::resource_contents::from_text(uri, "This is the content of the static text resource.",
                                                    "text/plain");
  co_return contents_list{std::move(contents)};
}

asio::awaitable<contents_list> read_static_binary(const std::string& uri, request_context&) {
  mcp::resource_contents contents{uri, "image/png", std::nullopt, std::string(png_base64)};
  co_return contents_list{std::move(contents)};
}

asio::awaitable<contents_list> read_template(const std::string& uri, const mcp::uri_variables& variables,
                                             request_context&) {
  const auto& id = variables.at("id");
  json::object data{{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
  auto contents = mcp::resource_contents::from_text(uri, json::serialize(data), "application/json");
  co_return contents_list{std::move(contents)};
}

asio::awaitable<contents_list> read_watched(const std::string& uri, request_context&) {
  auto contents = mcp::resource_contents::from_text(uri, "Watched resource content", "text/plain");
  co_return contents_list{std::move(contents)};
}

void add_resource(mcp::server& server, std::string uri, std::string name, std::string title,
                  std::string description, std::string mime_type, mcp::resource_handler handler) {
  mcp::resource_info info{std::move(uri), std::move(name)};
  info.title = std::move(title);
  info.description = std::move(description);
  info.mime_type = std::move(mime_type);
  server.add_resource(std::move(info), std::move(handler));
}

// ---- prompts

mcp::get_prompt_result user_messages(std::vector<json::object> contents) {
  mcp::get_prompt_result result;
  for (auto& content : contents) result.messages.push_back({"user", std::move(content)});
  return result;
}

asio::awaitable<mcp::get_prompt_result> simple_prompt(const mcp::prompt_arguments&, request_context&) {
  std::vector<json::object> contents{mcp::content::text("This is a simple prompt for testing.")};
  co_return user_messages(std::move(contents));
}

asio::awaitable<mcp::get_prompt_result> prompt_with_arguments(const mcp::prompt_arguments& args,
                                                              request_context&) {
  auto text = "Prompt with arguments: arg1='" + args.at("arg1") + "', arg2='" + args.at("arg2") + "'";
  std::vector<json::object> contents{mcp::content::text(std::move(text))};
  co_return user_messages(std::move(contents));
}

asio::awaitable<mcp::get_prompt_result> prompt_with_embedded_resource(const mcp::prompt_arguments& args,
                                                                      request_context&) {
  std::vector<json::object> contents{
      mcp::content::embedded_text(args.at("resourceUri"), "Embedded resource content for testing.", "text/plain"),
      mcp::content::text("Please process the embedded resource above.")};
  co_return user_messages(std::move(contents));
}

asio::awaitable<mcp::get_prompt_result> prompt_with_image(const mcp::prompt_arguments&, request_context&) {
  std::vector<json::object> contents{mcp::content::image(std::string(png_base64), "image/png"),
                                     mcp::content::text("Please analyze the image above.")};
  co_return user_messages(std::move(contents));
}

void add_prompt(mcp::server& server, std::string name, std::string title, std::string description,
                std::vector<mcp::prompt_argument> arguments, mcp::prompt_handler handler) {
  mcp::prompt_info info{std::move(name), std::move(description), std::move(arguments), std::move(title)};
  server.add_prompt(std::move(info), std::move(handler));
}

}  // namespace

void add_conformance_fixtures(mcp::server& server) {
  add_tool(server, "test_simple_text", "Tests simple text content response", no_arguments, simple_text);
  add_tool(server, "test_image_content", "Tests image content response", no_arguments, image_content);
  add_tool(server, "test_audio_content", "Tests audio content response", no_arguments, audio_content);
  add_tool(server, "test_embedded_resource", "Tests embedded resource content response", no_arguments,
           embedded_resource);
  add_tool(server, "test_multiple_content_types",
           "Tests response with multiple content types (text, image, resource)", no_arguments,
           multiple_content_types);
  add_tool(server, "test_tool_with_logging", "Tests tool that emits log messages during execution",
           no_arguments, tool_with_logging);
  add_tool(server, "test_tool_with_progress", "Tests tool that reports progress notifications", no_arguments,
           tool_with_progress);
  add_tool(server, "test_error_handling", "Tests error response handling", no_arguments, error_handling);
  add_tool(server, "test_reconnection",
           "Tests SSE stream disconnection and client reconnection (SEP-1699). Server will close the "
           "stream mid-call and send the result after client reconnects.",
           no_arguments, reconnection);
  add_tool(server, "test_sampling", "Tests server-initiated sampling (LLM completion request)",
           R"json({"type":"object","properties":{"prompt":{"type":"string","description":"The prompt to send to the LLM"}},)json"
           R"json("required":["prompt"]})json",
           sampling);
  add_tool(server, "test_elicitation", "Tests server-initiated elicitation (user input request)",
           R"json({"type":"object","properties":{"message":{"type":"string","description":"The message to show the user"}},)json"
           R"json("required":["message"]})json",
           elicitation);
  add_tool(server, "test_elicitation_sep1034_defaults", "Tests elicitation with default values per SEP-1034",
           no_arguments, elicitation_sep1034_defaults);
  add_tool(server, "test_elicitation_sep1330_enums",
           "Tests elicitation with enum schema improvements per SEP-1330", no_arguments,
           elicitation_sep1330_enums);
  add_tool(server, "json_schema_2020_12_tool",
           "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)", json_schema_2020_12,
           json_schema_tool);

  add_resource(server, "test://static-text", "static-text", "Static Text Resource",
               "A static text resource for testing", "text/plain", read_static_text);
  add_resource(server, "test://static-binary", "static-binary", "Static Binary Resource",
               "A static binary resource (image) for testing", "image/png", read_static_binary);
  add_resource(server, "test://watched-resource", "watched-resource", "Watched Resource",
               "A resource clients can subscribe to", "text/plain", read_watched);
  mcp::resource_template_info template_info{"test://template/{id}/data", "template"};
  template_info.title = "Resource Template";
  template_info.description = "A resource template with parameter substitution";
  template_info.mime_type = "application/json";
  server.add_resource_template(std::move(template_info), read_template);

  add_prompt(server, "test_simple_prompt", "Simple Test Prompt", "A simple prompt without arguments", {},
             simple_prompt);
  add_prompt(server, "test_prompt_with_arguments", "Prompt With Arguments", "A prompt with required arguments",
             {{"arg1", "First test argument", true}, {"arg2", "Second test argument", true}},
             prompt_with_arguments);
  add_prompt(server, "test_prompt_with_embedded_resource", "Prompt With Embedded Resource",
             "A prompt that includes an embedded resource",
             {{"resourceUri", "URI of the resource to embed", true}}, prompt_with_embedded_resource);
  add_prompt(server, "test_prompt_with_image", "Prompt With Image", "A prompt that includes image content", {},
             prompt_with_image);

  // completion/complete: no completer is registered, so every argument
  // completes to {values: [], total: 0, hasMore: false}, as the reference
  // server answers (`completion-complete` accepts an empty array).
  add_modern_conformance_fixtures(server);
  add_task_conformance_fixtures(server);
}
