// The fixtures that only the 2026-07-28 scenarios of the conformance suite
// (0.2.0-alpha) call: multi-round requests (MRTR), and the diagnostics of
// its server-stateless scenario. Each handler is written once and serves
// both eras: ctx.ask() sends real requests to a legacy client, and ends a
// modern round with `input_required` until the client's retry carries the
// answers.

#include "conformance_fixtures.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace {

namespace json = boost::json;
using mcp::call_tool_result;
using mcp::input_request;
using mcp::request_context;
namespace asio = boost::asio;

constexpr std::string_view no_arguments = R"json({"type":"object","properties":{}})json";

json::object parse_object(std::string_view text) { return json::parse(text).as_object(); }

// A form with one required string (or boolean) field.
json::object form(std::string_view field, std::string_view type = "string") {
  return {{"type", "object"},
          {"properties", {{field, {{"type", type}}}}},
          {"required", json::array{field}}};
}

input_request ask_text(std::string message, std::string_view field) {
  return input_request::elicitation(std::move(message), form(field));
}

input_request ask_llm(std::string prompt, int max_tokens) {
  json::object message{{"role", "user"}, {"content", {{"type", "text"}, {"text", std::move(prompt)}}}};
  return input_request::sampling({{"messages", json::array{std::move(message)}}, {"maxTokens", max_tokens}});
}

// The field of an accepted form, or what the user did instead.
std::string form_value(const json::object& answer, std::string_view field) {
  const auto* content = answer.if_contains("content");
  if (answer.at("action") == "accept" && content && content->is_object())
    if (const auto* value = content->get_object().if_contains(field))
      return value->is_string() ? std::string(value->get_string()) : json::serialize(*value);
  return "(" + std::string(answer.at("action").as_string()) + ")";
}

std::string sampled(const json::object& answer) {
  const auto& content = answer.at("content");
  const auto& block = content.is_array() && !content.get_array().empty() ? content.get_array().front() : content;
  if (const auto* text = block.is_object() ? block.get_object().if_contains("text") : nullptr; text && text->is_string())
    return std::string(text->get_string());
  return "(no text)";
}

std::string root_names(const json::object& answer) {
  std::string names;
  for (const auto& root : answer.at("roots").as_array()) {
    const auto& r = root.as_object();
    if (!names.empty()) names += ", ";
    names += r.contains("name") ? std::string(r.at("name").as_string()) : std::string(r.at("uri").as_string());
    names += " (" + std::string(r.at("uri").as_string()) + ")";
  }
  return names.empty() ? "no roots" : names;
}

bool declares(request_context& ctx, std::string_view capability) {
  const auto* value = ctx.session().client_capabilities().if_contains(capability);
  return value && value->is_object();
}

// ---- multi-round requests

asio::awaitable<call_tool_result> input_elicitation(const json::object&, request_context& ctx) {
  mcp::input_requests questions{{"user_name", ask_text("What is your name?", "name")}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("Hello, " + form_value(answers.at("user_name"), "name") + "!");
}

asio::awaitable<call_tool_result> input_sampling(const json::object&, request_context& ctx) {
  mcp::input_requests questions{{"capital_question", ask_llm("What is the capital of France?", 100)}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("The model said: " + sampled(answers.at("capital_question")));
}

asio::awaitable<call_tool_result> input_roots(const json::object&, request_context& ctx) {
  mcp::input_requests questions{{"client_roots", input_request::roots()}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("Client roots: " + root_names(answers.at("client_roots")));
}

asio::awaitable<call_tool_result> input_request_state(const json::object&, request_context& ctx) {
  // Carried through the client in the signed requestState, back on the retry.
  ctx.carry("state-ok");
  mcp::input_requests questions{{"confirm", input_request::elicitation("Please confirm", form("ok", "boolean"))}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text(std::string(ctx.carried().as_string()) + ": confirmed " +
                                   form_value(answers.at("confirm"), "ok"));
}

asio::awaitable<call_tool_result> input_multiple(const json::object&, request_context& ctx) {
  ctx.carry("multiple-inputs");
  mcp::input_requests questions{{"user_name", ask_text("What is your name?", "name")},
                                   {"greeting", ask_llm("Generate a greeting", 50)},
                                   {"client_roots", input_request::roots()}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("Name: " + form_value(answers.at("user_name"), "name") +
                                   "; greeting: " + sampled(answers.at("greeting")) +
                                   "; roots: " + root_names(answers.at("client_roots")));
}

asio::awaitable<call_tool_result> input_multi_round(const json::object&, request_context& ctx) {
  // Each round asks one question; the state of each round differs.
  ctx.carry("round-1");
  mcp::input_requests first{{"step1", ask_text("Step 1: What is your name?", "name")}};
  auto name = co_await ctx.ask(std::move(first));
  ctx.carry("round-2");
  mcp::input_requests second{{"step2", ask_text("Step 2: What is your favorite color?", "color")}};
  auto color = co_await ctx.ask(std::move(second));
  co_return call_tool_result::text(form_value(name.at("step1"), "name") + " likes " +
                                   form_value(color.at("step2"), "color"));
}

asio::awaitable<call_tool_result> input_tampered_state(const json::object&, request_context& ctx) {
  ctx.carry("integrity-protected");
  mcp::input_requests questions{{"confirm", input_request::elicitation("Please confirm", form("ok", "boolean"))}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("Confirmed with an untampered state: " + form_value(answers.at("confirm"), "ok"));
}

asio::awaitable<call_tool_result> input_capabilities(const json::object&, request_context& ctx) {
  // Asks only for what this request's client says it can answer.
  mcp::input_requests wanted;
  if (declares(ctx, "elicitation")) wanted.emplace("user_name", ask_text("What is your name?", "name"));
  if (declares(ctx, "sampling")) wanted.emplace("greeting", ask_llm("Generate a greeting", 50));
  if (declares(ctx, "roots")) wanted.emplace("client_roots", input_request::roots());
  if (wanted.empty()) co_return call_tool_result::text("The client declared no input capability");
  auto answers = co_await ctx.ask(std::move(wanted));
  std::string kinds;
  for (const auto& [key, answer] : answers) kinds += (kinds.empty() ? "" : ", ") + key;
  co_return call_tool_result::text("Received: " + kinds);
}

asio::awaitable<mcp::get_prompt_result> input_prompt(const mcp::prompt_arguments&, request_context& ctx) {
  mcp::input_requests questions{{"user_context", ask_text("What context should the prompt use?", "context")}};
  auto answers = co_await ctx.ask(std::move(questions));
  mcp::get_prompt_result result;
  result.messages.push_back(
      {"user", mcp::content::text("Use this context: " + form_value(answers.at("user_context"), "context"))});
  co_return result;
}

// (Requests are named before co_await: g++ 12 miscompiles braced
// temporaries in a co_await expression, see docs/compilers.md.)

// ---- diagnostics of server-stateless

asio::awaitable<call_tool_result> missing_capability(const json::object&, request_context& ctx) {
  // Needs sampling: refused with -32021 when the request does not declare it.
  mcp::input_requests questions{{"llm_answer", ask_llm("Say hello", 50)}};
  auto answers = co_await ctx.ask(std::move(questions));
  co_return call_tool_result::text("The model said: " + sampled(answers.at("llm_answer")));
}

asio::awaitable<call_tool_result> streaming_elicitation(const json::object&, request_context&) {
  co_return call_tool_result::text("Served without asking the client anything");
}

asio::awaitable<call_tool_result> logging_tool(const json::object&, request_context& ctx) {
  // Sent only when the request's _meta asks for a log level.
  co_await ctx.log(mcp::logging_level::info, "logging_tool ran");
  co_await ctx.log(mcp::logging_level::warning, "a warning from logging_tool");
  co_return call_tool_result::text("Logged two messages (if the request asked for them)");
}

// Its `region` and `level` arguments travel in Mcp-Param-* headers too.
constexpr std::string_view x_mcp_header_schema = R"json({"type":"object","properties":{
"region":{"type":"string","x-mcp-header":"Region"},"level":{"type":"integer"}},"required":["region"]})json";

asio::awaitable<call_tool_result> x_mcp_header(const json::object& args, request_context&) {
  co_return call_tool_result::text("Region: " + json::serialize(args.at("region")));
}

void add_tool(mcp::server& server, std::string name, std::string description, mcp::tool_handler handler) {
  mcp::tool_info info{std::move(name), std::move(description)};
  info.input_schema = parse_object(no_arguments);
  server.add_tool(std::move(info), std::move(handler));
}

}  // namespace

void add_modern_conformance_fixtures(mcp::server& server) {
  add_tool(server, "test_input_required_result_elicitation", "Asks the user's name through an input request",
           input_elicitation);
  add_tool(server, "test_input_required_result_sampling", "Asks the client's model a question", input_sampling);
  add_tool(server, "test_input_required_result_list_roots", "Asks the client for its roots", input_roots);
  add_tool(server, "test_input_required_result_request_state",
           "Asks for a confirmation and carries a value in its requestState", input_request_state);
  add_tool(server, "test_input_required_result_multiple_inputs", "Asks for three inputs in one round",
           input_multiple);
  add_tool(server, "test_input_required_result_multi_round", "Asks two questions in two rounds",
           input_multi_round);
  add_tool(server, "test_input_required_result_tampered_state",
           "Asks for a confirmation; refuses an altered requestState", input_tampered_state);
  add_tool(server, "test_input_required_result_capabilities",
           "Asks only for the inputs the client declared it can give", input_capabilities);
  add_tool(server, "test_missing_capability", "Needs sampling from the client", missing_capability);
  add_tool(server, "test_streaming_elicitation", "Answers without asking the client", streaming_elicitation);
  add_tool(server, "test_logging_tool", "Logs at the level the request asks for", logging_tool);
  add_tool(server, "test_trigger_tool_change", "Announces that the tool list changed",
           [&server](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
             server.notify_tools_changed();
             co_return call_tool_result::text("Tool list change announced");
           });
  add_tool(server, "test_trigger_prompt_change", "Announces that the prompt list changed",
           [&server](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
             server.notify_prompts_changed();
             co_return call_tool_result::text("Prompt list change announced");
           });
  mcp::tool_info mirrored{"test_x_mcp_header", "Takes a region that is mirrored into the Mcp-Param-Region header"};
  mirrored.input_schema = parse_object(x_mcp_header_schema);
  server.add_tool(std::move(mirrored), x_mcp_header);
  mcp::prompt_info prompt{"test_input_required_result_prompt", "Asks the user for the prompt's context"};
  server.add_prompt(std::move(prompt), input_prompt);
}
