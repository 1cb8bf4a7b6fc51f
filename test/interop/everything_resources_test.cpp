// server-everything's resources through our client, over every transport:
// the static documents, the two templates (text and blob), errors, and
// subscriptions with their update notifications.

#include "everything_fixture.hpp"

#include <mcp/base64.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

namespace mcp::test {
namespace {

class EverythingResources : public everything_test {};

constexpr const char* document_base = "demo://resource/static/document/";

/// The names of the files server-everything serves as documents.
std::set<std::string> document_files() {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(everything_docs()))
    if (entry.is_regular_file()) names.insert(entry.path().filename().string());
  return names;
}

TEST_P(EverythingResources, ListsEveryDocument) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    // The server sends them in one page; the client would follow nextCursor.
    const auto resources = co_await c.list_resources();
    std::set<std::string> uris, names;
    for (const auto& r : resources) {
      uris.insert(r.uri);
      names.insert(r.name);
      EXPECT_EQ(r.mime_type, "text/markdown") << r.uri;
    }
    const auto files = document_files();
    EXPECT_FALSE(files.empty());
    EXPECT_EQ(names, files);
    EXPECT_EQ(resources.size(), files.size());
    for (const auto& file : files) EXPECT_TRUE(uris.contains(document_base + file)) << file;
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingResources, ReadsADocument) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    std::string uri = std::string(document_base) + "features.md";
    const auto contents = co_await c.read_resource(uri);
    CO_ASSERT_TRUE(contents.size() == 1);
    EXPECT_EQ(contents[0].uri, uri);
    EXPECT_EQ(contents[0].mime_type, "text/markdown");
    EXPECT_EQ(contents[0].text, file_text(everything_docs() + "/features.md"));
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingResources, ListsBothTemplates) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    const auto templates = co_await c.list_resource_templates();
    CO_ASSERT_TRUE(templates.size() == 2);
    std::map<std::string, const resource_template_info*> by_name;
    for (const auto& t : templates) by_name[t.name] = &t;
    CO_ASSERT_TRUE(by_name.contains("Dynamic Text Resource") && by_name.contains("Dynamic Blob Resource"));
    EXPECT_EQ(by_name["Dynamic Text Resource"]->uri_template, "demo://resource/dynamic/text/{resourceId}");
    EXPECT_EQ(by_name["Dynamic Text Resource"]->mime_type, "text/plain");
    EXPECT_EQ(by_name["Dynamic Blob Resource"]->uri_template, "demo://resource/dynamic/blob/{resourceId}");
    EXPECT_EQ(by_name["Dynamic Blob Resource"]->mime_type, "application/octet-stream");
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingResources, ReadsTextAndBlobFromTemplates) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    std::string text_uri = "demo://resource/dynamic/text/12";
    const auto text = co_await c.read_resource(text_uri);
    CO_ASSERT_TRUE(text.size() == 1 && text[0].text.has_value());
    EXPECT_EQ(text[0].uri, text_uri);
    EXPECT_FALSE(text[0].blob.has_value());
    EXPECT_TRUE(text[0].text->starts_with("Resource 12: This is a plaintext resource created at")) << *text[0].text;

    std::string blob_uri = "demo://resource/dynamic/blob/12";
    const auto blob = co_await c.read_resource(blob_uri);
    CO_ASSERT_TRUE(blob.size() == 1 && blob[0].blob.has_value());
    EXPECT_FALSE(blob[0].text.has_value());
    const auto bytes = base64_decode(*blob[0].blob);
    CO_ASSERT_TRUE(bytes.has_value());
    EXPECT_TRUE(bytes->starts_with("Resource 12: This is a base64 blob created at")) << *bytes;
    co_await c.close();
  }, 30s);
}

TEST_P(EverythingResources, UnknownResourceIsAnError) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    co_await connect(c);
    std::optional<rpc_error> error;
    try {
      std::string uri = "demo://no/such/resource";
      co_await c.read_resource(uri);
    } catch (const protocol_error& e) {
      error = e.error();
    }
    CO_ASSERT_TRUE(error.has_value());
    EXPECT_EQ(error->code, errc::invalid_params);
    EXPECT_NE(error->message.find("demo://no/such/resource"), std::string::npos) << error->message;
    co_await c.ping();  // the session goes on
    co_await c.close();
  }, 30s);
}

// toggle-subscriber-updates makes the server notify every subscribed URI at
// once, then every 5 s. The first round normally arrives at once; the bound
// allows for one more round.
TEST_P(EverythingResources, SubscriptionBringsUpdates) {
  run_test([this]() -> asio::awaitable<void> {
    mcp::client c(co_await asio::this_coro::executor);
    std::vector<std::string> updated;
    c.on_resource_updated([&](const std::string& uri) { updated.push_back(uri); });
    co_await connect(c);

    std::string uri = "demo://resource/dynamic/text/1";
    co_await c.subscribe(uri);
    const auto started = co_await c.call_tool("toggle-subscriber-updates");
    EXPECT_TRUE(first_text(started).starts_with("Started simulated resource updated notifications"))
        << first_text(started);
    const auto heard = [&] { return !updated.empty(); };
    const bool notified = co_await eventually(heard, 7s);
    EXPECT_TRUE(notified) << "no notifications/resources/updated";
    for (const auto& u : updated) EXPECT_EQ(u, uri);

    co_await c.unsubscribe(uri);
    const auto stopped = co_await c.call_tool("toggle-subscriber-updates");
    EXPECT_TRUE(first_text(stopped).starts_with("Stopped simulated resource updates")) << first_text(stopped);
    co_await c.close();
  }, 30s);
}

INSTANTIATE_TEST_SUITE_P(Transports, EverythingResources, every_transport(), transport_name);

}  // namespace
}  // namespace mcp::test
