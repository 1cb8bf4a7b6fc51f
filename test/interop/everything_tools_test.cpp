// Our client calls each tool server-everything always lists, over every
// transport, and checks what a user would see: text, images, annotations,
// structured content, resource links and embedded resources, progress.
// (The tools it lists only for clients that offer sampling, elicitation or
// roots: everything_server_requests_test.cpp.)

#include "everything_fixture.hpp"

#include <mcp/base64.hpp>

#include <algorithm>
#include <set>

namespace mcp::test {
namespace {

class EverythingTools : public everything_test {};

std::set<std::string> tool_names(const std::vector<tool_info>& tools) {
  std::set<std::string> names;
  for (const auto& tool : tools) names.insert(tool.name);
  return names;
}

const tool_info* find_tool(const std::vector<tool_info>& tools, std::string_view name) {
  for (const auto& tool : tools)
    if (tool.name == name) return &tool;
  return nullptr;
}

/// The bytes of a base64 field of a content block ("data" or "blob").
std::string decoded(const json::value& block, std::string_view field) {
  return base64_decode(block.at(field).as_string()).value_or("(not base64)");
}

TEST_P(EverythingTools, ListsEveryToolWithItsDescription) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);  // no sampling, elicitation or roots
    co_await connect(c);
    const auto tools = co_await c.list_tools();
    const std::set<std::string> expected{
        "echo", "get-annotated-message", "get-env", "get-resource-links", "get-resource-reference",
        "get-structured-content", "get-sum", "get-tiny-image", "gzip-file-as-resource",
        "toggle-simulated-logging", "toggle-subscriber-updates", "trigger-long-running-operation",
        "simulate-research-query"};
    EXPECT_EQ(tool_names(tools), expected);

    const auto* echo = find_tool(tools, "echo");
    CO_ASSERT_TRUE(echo != nullptr);
    EXPECT_EQ(echo->title, "Echo Tool");
    EXPECT_EQ(echo->description, "Echoes back the input string");
    EXPECT_EQ(echo->annotations.read_only_hint, true);
    EXPECT_EQ(echo->annotations.destructive_hint, false);
    EXPECT_EQ(echo->input_schema.at("properties").at("message").at("type"), "string");
    EXPECT_EQ(echo->input_schema.at("required"), json::value(json::array{"message"}));

    const auto* weather = find_tool(tools, "get-structured-content");
    CO_ASSERT_TRUE(weather != nullptr && weather->output_schema.has_value());
    EXPECT_TRUE(weather->output_schema->at("properties").as_object().contains("temperature"));
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, EchoAndSum) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    json::object message{{"message", "hello, everything ✓"}};
    const auto echo = co_await c.call_tool("echo", message);
    EXPECT_FALSE(echo.is_error);
    EXPECT_EQ(texts(echo), std::vector<std::string>{"Echo: hello, everything ✓"});

    json::object numbers{{"a", 2}, {"b", 3.5}};
    const auto sum = co_await c.call_tool("get-sum", numbers);
    EXPECT_EQ(texts(sum), std::vector<std::string>{"The sum of 2 and 3.5 is 5.5."});
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, GetEnvShowsTheServersEnvironment) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto result = co_await c.call_tool("get-env");
    const auto env = json::parse(first_text(result));
    EXPECT_EQ(env.at(marker_variable), marker_value);
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, TinyImageIsAPng) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto result = co_await c.call_tool("get-tiny-image");
    CO_ASSERT_TRUE(result.content.size() == 3);
    EXPECT_EQ(block_type(result.content[0]), "text");
    EXPECT_EQ(block_type(result.content[1]), "image");
    EXPECT_EQ(block_type(result.content[2]), "text");
    EXPECT_EQ(result.content[1].at("mimeType"), "image/png");
    EXPECT_TRUE(decoded(result.content[1], "data").starts_with("\x89PNG\r\n\x1a\n"));
    EXPECT_EQ(texts(result).back(), "The image above is the MCP logo.");
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, AnnotatedMessageCarriesPriorityAndAudience) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    json::object error_with_image{{"messageType", "error"}, {"includeImage", true}};
    const auto result = co_await c.call_tool("get-annotated-message", error_with_image);
    CO_ASSERT_TRUE(result.content.size() == 2);
    const auto& text = result.content[0];
    EXPECT_EQ(text.at("text"), "Error: Operation failed");
    EXPECT_EQ(text.at("annotations").at("priority").to_number<double>(), 1.0);
    EXPECT_EQ(text.at("annotations").at("audience"), json::value(json::array{"user", "assistant"}));
    const auto& image = result.content[1];
    EXPECT_EQ(block_type(image), "image");
    EXPECT_EQ(image.at("annotations").at("priority").to_number<double>(), 0.5);
    EXPECT_EQ(image.at("annotations").at("audience"), json::value(json::array{"user"}));

    json::object debug{{"messageType", "debug"}};
    const auto quiet = co_await c.call_tool("get-annotated-message", debug);
    CO_ASSERT_TRUE(quiet.content.size() == 1);
    EXPECT_EQ(quiet.content[0].at("annotations").at("audience"), json::value(json::array{"assistant"}));
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, StructuredContentMatchesItsText) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    json::object chicago{{"location", "Chicago"}};
    const auto result = co_await c.call_tool("get-structured-content", chicago);
    const json::value expected{{"temperature", 36}, {"conditions", "Light rain / drizzle"}, {"humidity", 82}};
    CO_ASSERT_TRUE(result.structured_content.has_value());
    EXPECT_EQ(*result.structured_content, expected);
    EXPECT_EQ(json::parse(first_text(result)), expected);
    const auto schema = co_await c.output_schema("get-structured-content");
    CO_ASSERT_TRUE(schema.has_value());
    EXPECT_EQ(schema->at("properties").at("humidity").at("type"), "number");
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, ResourceLinksLeadToReadableResources) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    json::object four{{"count", 4}};
    const auto result = co_await c.call_tool("get-resource-links", four);
    CO_ASSERT_TRUE(result.content.size() == 5);
    EXPECT_EQ(first_text(result), "Here are 4 resource links to resources available in this server:");
    // Odd ids link to blob resources, even ones to text resources.
    const std::vector<std::string> uris{"demo://resource/dynamic/blob/1", "demo://resource/dynamic/text/2",
                                        "demo://resource/dynamic/blob/3", "demo://resource/dynamic/text/4"};
    for (std::size_t i = 0; i < uris.size(); ++i) {
      EXPECT_EQ(block_type(result.content[i + 1]), "resource_link");
      EXPECT_EQ(result.content[i + 1].at("uri").as_string(), uris[i]);
    }

    auto link = uris[1];
    const auto contents = co_await c.read_resource(std::move(link));
    CO_ASSERT_TRUE(contents.size() == 1 && contents[0].text.has_value());
    EXPECT_TRUE(contents[0].text->starts_with("Resource 2: This is a plaintext resource")) << *contents[0].text;
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, ResourceReferenceEmbedsTheResource) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    json::object text_five{{"resourceType", "Text"}, {"resourceId", 5}};
    const auto text = co_await c.call_tool("get-resource-reference", text_five);
    CO_ASSERT_TRUE(text.content.size() == 3);
    EXPECT_EQ(block_type(text.content[1]), "resource");
    const auto& embedded = text.content[1].at("resource");
    EXPECT_EQ(embedded.at("uri"), "demo://resource/dynamic/text/5");
    EXPECT_TRUE(embedded.at("text").as_string().starts_with("Resource 5: This is a plaintext resource"));
    EXPECT_EQ(texts(text).back(), "You can access this resource using the URI: demo://resource/dynamic/text/5");

    json::object blob_six{{"resourceType", "Blob"}, {"resourceId", 6}};
    const auto blob = co_await c.call_tool("get-resource-reference", blob_six);
    CO_ASSERT_TRUE(blob.content.size() == 3);
    EXPECT_EQ(blob.content[1].at("resource").at("uri"), "demo://resource/dynamic/blob/6");
    EXPECT_TRUE(decoded(blob.content[1].at("resource"), "blob").starts_with("Resource 6: This is a base64 blob"));
    co_await c.close();
  }, 30s);
}

// A gzip file ends with the length of what it holds (RFC 1952, ISIZE).
std::uint32_t gzip_input_size(std::string_view gz) {
  if (gz.size() < 18) return 0;
  std::uint32_t size = 0;
  for (int i = 0; i < 4; ++i) size |= std::uint32_t(static_cast<unsigned char>(gz[gz.size() - 4 + i])) << (8 * i);
  return size;
}

// The input is a data: URI, so the server fetches nothing from the network.
TEST_P(EverythingTools, GzipFileAsResourceAddsASessionResource) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<std::string> changed;
    c.on_list_changed([&](std::string_view what) { changed.emplace_back(what); });
    co_await connect(c);
    const std::string original = "hello, gzip\n";
    const std::string data_uri = "data:text/plain;base64," + base64_encode(original);

    json::object inline_args{{"name", "inline.txt.gz"}, {"data", data_uri}, {"outputType", "resource"}};
    const auto inline_result = co_await c.call_tool("gzip-file-as-resource", inline_args);
    CO_ASSERT_TRUE(inline_result.content.size() == 1);
    const auto& resource = inline_result.content[0].at("resource");
    EXPECT_EQ(resource.at("mimeType"), "application/gzip");
    const auto gz = decoded(resource, "blob");
    EXPECT_TRUE(gz.starts_with("\x1f\x8b")) << "not gzip";
    EXPECT_EQ(gzip_input_size(gz), original.size());

    json::object link_args{{"name", "linked.txt.gz"}, {"data", data_uri}};
    const auto link_result = co_await c.call_tool("gzip-file-as-resource", link_args);
    CO_ASSERT_TRUE(link_result.content.size() == 1);
    EXPECT_EQ(block_type(link_result.content[0]), "resource_link");
    EXPECT_EQ(link_result.content[0].at("uri"), "demo://resource/session/linked.txt.gz");

    std::string uri = "demo://resource/session/linked.txt.gz";
    const auto read = co_await c.read_resource(uri);
    CO_ASSERT_TRUE(read.size() == 1 && read[0].blob.has_value());
    EXPECT_EQ(read[0].mime_type, "application/gzip");
    EXPECT_EQ(gzip_input_size(base64_decode(*read[0].blob).value_or("")), original.size());

    const auto resources_changed = [&] { return std::ranges::find(changed, "resources") != changed.end(); };
    const bool told = co_await eventually(resources_changed, 5s);
    EXPECT_TRUE(told) << "no notifications/resources/list_changed";
    const auto resources = co_await c.list_resources();
    EXPECT_TRUE(std::ranges::any_of(resources, [&](const resource_info& r) { return r.uri == uri; }));
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingTools, LongRunningOperationReportsProgress) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    std::vector<progress_update> updates;
    call_options options;
    options.on_progress = [&](const progress_update& p) { updates.push_back(p); };
    json::object args{{"duration", 0.4}, {"steps", 4}};
    const auto result = co_await c.call_tool("trigger-long-running-operation", args, options);
    EXPECT_EQ(first_text(result), "Long running operation completed. Duration: 0.4 seconds, Steps: 4.");
    CO_ASSERT_TRUE(updates.size() == 4);
    for (std::size_t i = 0; i < updates.size(); ++i) {
      EXPECT_EQ(updates[i].progress, double(i + 1));
      EXPECT_EQ(updates[i].total, 4.0);
    }
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingTools, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
