// server-everything's prompts and completions through our client, over every
// transport.

#include "everything_fixture.hpp"

#include <mcp/base64.hpp>

#include <map>

namespace mcp::test {
namespace {

class EverythingPrompts : public everything_test {};

/// Each argument's name, with '?' after an optional one.
std::vector<std::string> argument_names(const prompt_info& prompt) {
  std::vector<std::string> names;
  for (const auto& a : prompt.arguments) names.push_back(a.name + (a.required ? "" : "?"));
  return names;
}

std::string message_text(const prompt_message& message) {
  return std::string(message.content.at("text").as_string());
}

TEST_P(EverythingPrompts, ListsEveryPromptWithItsArguments) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto prompts = co_await c.list_prompts();
    std::map<std::string, std::vector<std::string>> arguments;
    for (const auto& p : prompts) arguments[p.name] = argument_names(p);
    const std::map<std::string, std::vector<std::string>> expected{
        {"simple-prompt", {}},
        {"args-prompt", {"city", "state?"}},
        {"completable-prompt", {"department", "name"}},
        {"resource-prompt", {"resourceType", "resourceId"}}};
    EXPECT_EQ(arguments, expected);
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingPrompts, GetsPromptsWithTheirArguments) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto simple = co_await c.get_prompt("simple-prompt");
    CO_ASSERT_TRUE(simple.messages.size() == 1);
    EXPECT_EQ(simple.messages[0].role, "user");
    EXPECT_EQ(message_text(simple.messages[0]), "This is a simple prompt without arguments.");

    std::map<std::string, std::string> both{{"city", "Paris"}, {"state", "Texas"}};
    const auto paris = co_await c.get_prompt("args-prompt", both);
    CO_ASSERT_TRUE(paris.messages.size() == 1);
    EXPECT_EQ(message_text(paris.messages[0]), "What's weather in Paris, Texas?");

    std::map<std::string, std::string> city_only{{"city", "Oslo"}};
    const auto oslo = co_await c.get_prompt("args-prompt", city_only);
    CO_ASSERT_TRUE(oslo.messages.size() == 1);
    EXPECT_EQ(message_text(oslo.messages[0]), "What's weather in Oslo?");

    std::map<std::string, std::string> team{{"department", "Engineering"}, {"name", "Bob"}};
    const auto promote = co_await c.get_prompt("completable-prompt", team);
    CO_ASSERT_TRUE(promote.messages.size() == 1);
    EXPECT_EQ(message_text(promote.messages[0]), "Please promote Bob to the head of the Engineering team.");
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingPrompts, ResourcePromptEmbedsTheResource) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    std::map<std::string, std::string> blob_two{{"resourceType", "Blob"}, {"resourceId", "2"}};
    const auto prompt = co_await c.get_prompt("resource-prompt", blob_two);
    CO_ASSERT_TRUE(prompt.messages.size() == 2);
    EXPECT_EQ(message_text(prompt.messages[0]),
              "This prompt includes the Blob resource with id: 2. Please analyze the following resource:");
    const auto& embedded = prompt.messages[1].content;
    EXPECT_EQ(embedded.at("type"), "resource");
    EXPECT_EQ(embedded.at("resource").at("uri"), "demo://resource/dynamic/blob/2");
    const auto bytes = base64_decode(embedded.at("resource").at("blob").as_string());
    CO_ASSERT_TRUE(bytes.has_value());
    EXPECT_TRUE(bytes->starts_with("Resource 2: This is a base64 blob")) << *bytes;
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingPrompts, MissingRequiredArgumentIsAnError) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    int code = 0;
    try {
      std::map<std::string, std::string> no_city{{"state", "Texas"}};
      co_await c.get_prompt("args-prompt", no_city);
    } catch (const protocol_error& e) {
      code = e.error().code;
    }
    EXPECT_EQ(code, errc::invalid_params);
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingPrompts, CompletesPromptArguments) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto departments = co_await c.complete_prompt_argument("completable-prompt", "department", "S");
    EXPECT_EQ(departments.values, (std::vector<std::string>{"Sales", "Support"}));
    EXPECT_EQ(departments.total, 2);
    EXPECT_FALSE(departments.has_more);

    // The department already chosen narrows the names.
    completion_context engineering{{"department", "Engineering"}};
    const auto engineers = co_await c.complete_prompt_argument("completable-prompt", "name", "", engineering);
    EXPECT_EQ(engineers.values, (std::vector<std::string>{"Alice", "Bob", "Charlie"}));
    completion_context sales{{"department", "Sales"}};
    const auto sellers = co_await c.complete_prompt_argument("completable-prompt", "name", "E", sales);
    EXPECT_EQ(sellers.values, std::vector<std::string>{"Eve"});

    const auto types = co_await c.complete_prompt_argument("resource-prompt", "resourceType", "B");
    EXPECT_EQ(types.values, std::vector<std::string>{"Blob"});
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingPrompts, CompletesTemplateVariables) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const std::string text_template = "demo://resource/dynamic/text/{resourceId}";
    const auto number = co_await c.complete_template_variable(text_template, "resourceId", "42");
    EXPECT_EQ(number.values, std::vector<std::string>{"42"});
    const auto word = co_await c.complete_template_variable(text_template, "resourceId", "x");
    EXPECT_TRUE(word.values.empty());
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingPrompts, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
