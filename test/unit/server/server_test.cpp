// The high-level server over an in-memory transport, spoken to with raw
// JSON-RPC as a client of each protocol revision would.

#include <mcp/server/server.hpp>

#include "server_harness.hpp"

namespace mcp::test {
namespace {

asio::awaitable<call_tool_result> say_hello(const json::object& args, request_context&) {
  const auto* who = args.if_contains("name");
  co_return call_tool_result::text("Hello, " + std::string(who ? who->as_string() : "world") + "!");
}

std::shared_ptr<server> demo_server(server_options settings) {
  auto srv = std::make_shared<server>(implementation{"demo", "1.0"}, std::move(settings));
  tool_info greet{"greet", "Say hello"};
  greet.title = "Greeter";
  greet.annotations.read_only_hint = true;
  greet.icons = json::array{json::object{{"src", "https://example.com/i.png"}}};
  greet.input_schema = {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}};
  srv->add_tool(greet, say_hello);

  tool_info media{"media", "Every content type"};
  srv->add_tool(media, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    call_tool_result r;
    r.content = json::array{content::audio("AAAA", "audio/wav"),
                            content::resource_link("file:///a.txt", "a.txt", "text/plain"),
                            content::image("iVBO", "image/png")};
    co_return r;
  });

  tool_info structured{"structured", "Structured output"};
  structured.output_schema = json::object{{"type", "object"}, {"properties", {{"sum", {{"type", "number"}}}}}};
  srv->add_tool(structured, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    call_tool_result r;
    r.structured_content = json::object{{"sum", 3}};
    co_return r;
  });

  srv->add_tool({"fail", "Throws"}, [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
    throw std::runtime_error("disk on fire");
    co_return call_tool_result{};
  });
  srv->add_tool({"refuse", "Protocol error"},
                [](const json::object&, request_context&) -> asio::awaitable<call_tool_result> {
                  throw protocol_error(errc::invalid_params, "not like that");
                  co_return call_tool_result{};
                });
  srv->add_tool({"ask", "Samples the client"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  json::object params{{"messages", json::array{}}, {"maxTokens", 10}};
                  auto answer = co_await ctx.sample(std::move(params));
                  co_return call_tool_result::text(std::string(answer.at("content").at("text").as_string()));
                });
  srv->add_tool({"elicit", "Elicits"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  json::object schema{{"type", "object"}, {"properties", {{"ok", {{"type", "boolean"}}}}}};
                  auto answer = co_await ctx.elicit("Proceed?", std::move(schema));
                  co_return call_tool_result::text(std::string(answer.at("action").as_string()));
                });
  srv->add_tool({"log", "Logs at every level"},
                [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                  co_await ctx.log(logging_level::debug, "d");
                  co_await ctx.log(logging_level::warning, "w", "tests");
                  co_await ctx.log(logging_level::error, "e");
                  co_return call_tool_result::text("logged");
                });

  srv->add_resource({"file:///hello.txt", "hello.txt", std::nullopt, std::nullopt, "text/plain"},
                    [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
                      co_return std::vector{resource_contents::from_text(uri, "hello", "text/plain")};
                    });
  srv->add_resource({"file:///bytes.bin", "bytes.bin"},
                    [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
                      co_return std::vector{resource_contents::from_bytes(uri, std::string("\x01\x02\x03", 3))};
                    });
  srv->add_resource_template(
      {"users://{id}/profile", "profile"},
      [](const std::string& uri, const uri_variables& vars,
         request_context&) -> asio::awaitable<std::vector<resource_contents>> {
        co_return std::vector{resource_contents::from_text(uri, "user " + vars.at("id"))};
      });

  prompt_info review{"review", "Review code"};
  review.arguments = {{"code", "The code", true}, {"language", "Its language"}};
  srv->add_prompt(review, [](const prompt_arguments& args, request_context&) -> asio::awaitable<get_prompt_result> {
    get_prompt_result r;
    r.messages.push_back({"user", content::text("Review this " + (args.contains("language") ? args.at("language") : std::string("code")) + ": " + args.at("code"))});
    r.messages.push_back({"assistant", content::audio("AAAA", "audio/wav")});
    co_return r;
  });
  srv->add_prompt_completion("review", "language",
                             [](const completion_request& req, request_context&) -> asio::awaitable<std::vector<std::string>> {
                               std::vector<std::string> out;
                               for (std::string lang : {"c", "c++", "go", "python", "rust"})
                                 if (lang.starts_with(req.value)) out.push_back(lang);
                               if (req.context.contains("code")) out.push_back("context:" + req.context.at("code"));
                               co_return out;
                             });
  return srv;
}

// Not a defaulted argument: see docs/compilers.md.
std::shared_ptr<server> demo_server() { return demo_server(server_options{}); }

json::object tools_by_name(const json::value& list_reply) {
  json::object out;
  for (const auto& t : list_reply.at("result").at("tools").as_array()) out[t.at("name").as_string()] = t;
  return out;
}

asio::awaitable<json::value> call_tool(harness& h, int id, std::string name, json::object args = {}) {
  json::object params{{"name", std::move(name)}, {"arguments", std::move(args)}};
  co_return co_await h.call(id, "tools/call", std::move(params));
}

TEST(Server, InfersCapabilitiesAndShapesThemPerVersion) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    harness modern(ex, demo_server()), old(ex, demo_server());
    auto reply = co_await modern.initialize("2025-06-18");
    const auto& caps = reply.at("result").at("capabilities").as_object();
    EXPECT_EQ(caps.at("tools").at("listChanged"), true);
    EXPECT_EQ(caps.at("resources").at("subscribe"), true);
    EXPECT_EQ(caps.at("prompts").at("listChanged"), true);
    EXPECT_TRUE(caps.contains("logging"));
    EXPECT_TRUE(caps.contains("completions"));
    auto early = co_await old.initialize("2024-11-05");
    EXPECT_FALSE(early.at("result").at("capabilities").as_object().contains("completions"));
  });
}

TEST(Server, ToolListIsShapedForEachVersion) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    for (std::string version : {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}) {
      harness h(ex, demo_server());
      co_await h.initialize(version);
      auto list = co_await h.call(1, "tools/list");
      auto tools = tools_by_name(list);
      const auto& greet = tools.at("greet").as_object();
      const auto& structured = tools.at("structured").as_object();
      EXPECT_EQ(greet.at("description"), "Say hello") << version;
      EXPECT_EQ(greet.contains("annotations"), version >= "2025-03-26") << version;
      EXPECT_EQ(greet.contains("title"), version >= "2025-06-18") << version;
      EXPECT_EQ(structured.contains("outputSchema"), version >= "2025-06-18") << version;
      EXPECT_EQ(greet.contains("icons"), version >= "2025-11-25") << version;
    }
  });
}

TEST(Server, CallsAToolWithItsArguments) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize();
    json::object args{{"name", "Ada"}};
    auto reply = co_await call_tool(h, 1, "greet", args);
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "Hello, Ada!");
    EXPECT_FALSE(reply.at("result").as_object().contains("isError"));
  });
}

TEST(Server, UnknownToolAndBadArgumentsAreProtocolErrors) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize();
    auto unknown = co_await call_tool(h, 1, "nope");
    EXPECT_EQ(error_code(unknown), errc::invalid_params);
    json::object params{{"name", "greet"}, {"arguments", 5}};
    auto bad = co_await h.call(2, "tools/call", params);
    EXPECT_EQ(error_code(bad), errc::invalid_params);
    auto nameless = co_await h.call(3, "tools/call");
    EXPECT_EQ(error_code(nameless), errc::invalid_params);
  });
}

TEST(Server, ExceptionIsAToolErrorAndProtocolErrorIsAJsonRpcError) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize();
    auto failed = co_await call_tool(h, 1, "fail");
    EXPECT_EQ(failed.at("result").at("isError"), true);
    EXPECT_EQ(failed.at("result").at("content").at(0).at("text"), "disk on fire");
    auto refused = co_await call_tool(h, 2, "refuse");
    EXPECT_EQ(error_code(refused), errc::invalid_params);
  });
}

TEST(Server, StructuredContentOnlyWhereTheVersionHasIt) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    harness modern(ex, demo_server()), old(ex, demo_server());
    co_await modern.initialize("2025-06-18");
    co_await old.initialize("2025-03-26");
    auto now = co_await call_tool(modern, 1, "structured");
    EXPECT_EQ(now.at("result").at("structuredContent").at("sum"), 3);
    auto before = co_await call_tool(old, 1, "structured");
    EXPECT_FALSE(before.at("result").as_object().contains("structuredContent"));
    EXPECT_EQ(json::parse(before.at("result").at("content").at(0).at("text").as_string()),
              (json::object{{"sum", 3}}));
  });
}

TEST(Server, ContentTypesDegradeForOldVersions) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    harness newest(ex, demo_server()), oldest(ex, demo_server());
    co_await newest.initialize("2025-11-25");
    co_await oldest.initialize("2024-11-05");
    auto full = co_await call_tool(newest, 1, "media");
    const auto& blocks = full.at("result").at("content").as_array();
    EXPECT_EQ(blocks.at(0).at("type"), "audio");
    EXPECT_EQ(blocks.at(1).at("type"), "resource_link");
    auto degraded = co_await call_tool(oldest, 1, "media");
    const auto& old_blocks = degraded.at("result").at("content").as_array();
    EXPECT_EQ(old_blocks.at(0).at("type"), "text");
    EXPECT_EQ(old_blocks.at(1).at("type"), "text");
    EXPECT_NE(old_blocks.at(1).at("text").as_string().find("file:///a.txt"), std::string::npos);
    EXPECT_EQ(old_blocks.at(2).at("type"), "image");
  });
}

TEST(Server, ToolsAddedAndRemovedAtRunTimeNotifyTheSession) {
  run_test([]() -> asio::awaitable<void> {
    auto srv = demo_server();
    harness h(co_await asio::this_coro::executor, srv);
    co_await h.initialize();
    srv->add_tool({"late", "Added later"}, say_hello);
    auto changed = co_await read_json(*h.client);
    EXPECT_EQ(changed.at("method"), "notifications/tools/list_changed");
    auto with_late = co_await h.call(1, "tools/list");
    EXPECT_TRUE(tools_by_name(with_late).contains("late"));
    EXPECT_TRUE(srv->remove_tool("late"));
    auto again = co_await read_json(*h.client);
    EXPECT_EQ(again.at("method"), "notifications/tools/list_changed");
    auto without_late = co_await h.call(2, "tools/list");
    EXPECT_FALSE(tools_by_name(without_late).contains("late"));
    EXPECT_FALSE(srv->remove_tool("late"));
  });
}

// Adds a tool to the calling session only.
class session_tool_server final : public server {
 public:
  session_tool_server() : server({"per-session", "1.0"}) {
    add_tool({"unlock", "Unlocks a tool for this session"},
             [this](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
               add_tool(ctx.session(), {"secret", "Only here"}, say_hello);
               co_return call_tool_result::text("unlocked");
             });
  }
};

TEST(Server, SessionToolsAreSeenByTheirSessionOnly) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto srv = std::make_shared<session_tool_server>();
    harness one(ex, srv), two(ex, srv);
    co_await one.initialize();
    co_await two.initialize();
    co_await call_tool(one, 1, "unlock");
    auto changed = co_await read_json(*one.client);
    EXPECT_EQ(changed.at("method"), "notifications/tools/list_changed");
    auto first = co_await one.call(2, "tools/list");
    auto second = co_await two.call(2, "tools/list");
    EXPECT_TRUE(tools_by_name(first).contains("secret"));
    EXPECT_FALSE(tools_by_name(second).contains("secret"));
    auto hidden = co_await call_tool(two, 3, "secret");
    EXPECT_EQ(error_code(hidden), errc::invalid_params);
    const bool silent = co_await stays_silent(*two.client, 50ms);
    EXPECT_TRUE(silent);
  });
}

// Adds a resource and a prompt to the calling session only, and tells the
// client of a URL-mode elicitation (2025-11-25 helpers).
class session_content_server final : public server {
 public:
  session_content_server() : server({"per-session-content", "1.0"}) {
    add_tool({"unlock", "Unlocks a resource and a prompt for this session"},
             [this](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
               resource_info notes{"mem://notes", "notes"};
               add_resource(ctx.session(), std::move(notes),
                            [](const std::string& uri, request_context&) -> asio::awaitable<std::vector<resource_contents>> {
                              co_return std::vector<resource_contents>{resource_contents::from_text(uri, "private notes")};
                            });
               prompt_info brief{"brief", "A private prompt"};
               add_prompt(ctx.session(), std::move(brief),
                          [](const prompt_arguments&, request_context&) -> asio::awaitable<get_prompt_result> {
                            get_prompt_result result;
                            result.messages.push_back(prompt_message{"user", content::text("be brief")});
                            co_return result;
                          });
               co_return call_tool_result::text("unlocked");
             });
    add_tool({"lock", "Takes them back"},
             [this](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
               const bool both = remove_resource(ctx.session(), "mem://notes") && remove_prompt(ctx.session(), "brief");
               co_return call_tool_result::text(both ? "locked" : "nothing to lock");
             });
    add_tool({"needs_browser", "Needs the user at a URL"},
             [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
               ctx.session().post_elicitation_complete("e-1");
               throw url_elicitation_required("Sign in to the bank", "https://bank.example/consent", "e-1");
             });
  }
};

TEST(Server, SessionResourcesAndPromptsAreSeenByTheirSessionOnly) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto srv = std::make_shared<session_content_server>();
    harness one(ex, srv), two(ex, srv);
    co_await one.initialize();
    co_await two.initialize();
    co_await call_tool(one, 1, "unlock");
    auto first_change = co_await read_json(*one.client);  // (posted: after the answer)
    auto second_change = co_await read_json(*one.client);
    EXPECT_EQ(first_change.at("method"), "notifications/resources/list_changed");
    EXPECT_EQ(second_change.at("method"), "notifications/prompts/list_changed");
    auto mine = co_await one.call(2, "resources/list");
    auto theirs = co_await two.call(2, "resources/list");
    EXPECT_EQ(mine.at("result").at("resources").as_array().size(), 1u);
    EXPECT_TRUE(theirs.at("result").at("resources").as_array().empty());
    json::object notes{{"uri", "mem://notes"}};
    auto read = co_await one.call(3, "resources/read", notes);
    EXPECT_EQ(read.at("result").at("contents").at(0).at("text"), "private notes");
    auto refused = co_await two.call(3, "resources/read", notes);
    EXPECT_TRUE(refused.as_object().contains("error"));
    json::object brief{{"name", "brief"}};
    auto prompt = co_await one.call(4, "prompts/get", brief);
    EXPECT_EQ(prompt.at("result").at("messages").at(0).at("content").at("text"), "be brief");
    auto unknown = co_await two.call(4, "prompts/get", brief);
    EXPECT_EQ(error_code(unknown), errc::invalid_params);
    auto prompts = co_await two.call(5, "prompts/list");
    EXPECT_TRUE(prompts.at("result").at("prompts").as_array().empty());
    auto locked = co_await call_tool(one, 6, "lock");
    EXPECT_EQ(locked.at("result").at("content").at(0).at("text"), "locked");
  });
}

TEST(Server, UrlElicitationRequiredAndItsCompletion) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    auto srv = std::make_shared<session_content_server>();
    harness h(ex, srv);
    co_await h.initialize();  // 2025-11-25
    auto error = co_await call_tool(h, 1, "needs_browser");
    EXPECT_EQ(error_code(error), errc::url_elicitation_required);
    // (Posted: it follows the answer.)
    auto complete = co_await read_json(*h.client);
    EXPECT_EQ(complete.at("method"), "notifications/elicitation/complete");
    EXPECT_EQ(complete.at("params").at("elicitationId"), "e-1");
    const auto& elicitation = error.at("error").at("data").at("elicitations").at(0);
    EXPECT_EQ(elicitation.at("mode"), "url");
    EXPECT_EQ(elicitation.at("url"), "https://bank.example/consent");
    EXPECT_EQ(elicitation.at("elicitationId"), "e-1");
  });
}

TEST(Server, ListsPageByCursor) {
  run_test([]() -> asio::awaitable<void> {
    server_options settings;
    settings.page_size = 3;
    harness h(co_await asio::this_coro::executor, demo_server(settings));
    co_await h.initialize();
    std::vector<std::string> names;
    std::optional<std::string> cursor;
    int pages = 0;
    do {
      json::object params;
      if (cursor) params["cursor"] = *cursor;
      auto reply = co_await h.call(pages, "tools/list", params);
      for (const auto& t : reply.at("result").at("tools").as_array())
        names.emplace_back(t.at("name").as_string());
      const auto* next = reply.at("result").as_object().if_contains("nextCursor");
      cursor = next ? std::optional<std::string>(next->as_string()) : std::nullopt;
      ++pages;
    } while (cursor && pages < 10);
    EXPECT_EQ(pages, 3);
    EXPECT_EQ(names.size(), 8u);
    json::object bogus{{"cursor", "not-a-cursor"}};
    auto invalid = co_await h.call(99, "tools/list", bogus);
    EXPECT_EQ(error_code(invalid), errc::invalid_params);
  });
}

TEST(Server, ReadsStaticAndTemplatedResources) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize();
    auto list = co_await h.call(1, "resources/list");
    EXPECT_EQ(list.at("result").at("resources").as_array().size(), 2u);
    auto templates = co_await h.call(2, "resources/templates/list");
    EXPECT_EQ(templates.at("result").at("resourceTemplates").at(0).at("uriTemplate"), "users://{id}/profile");
    json::object text_params{{"uri", "file:///hello.txt"}};
    auto text = co_await h.call(3, "resources/read", text_params);
    EXPECT_EQ(text.at("result").at("contents").at(0).at("text"), "hello");
    EXPECT_EQ(text.at("result").at("contents").at(0).at("mimeType"), "text/plain");
    json::object blob_params{{"uri", "file:///bytes.bin"}};
    auto blob = co_await h.call(4, "resources/read", blob_params);
    EXPECT_EQ(blob.at("result").at("contents").at(0).at("blob"), "AQID");
    json::object user_params{{"uri", "users://42/profile"}};
    auto user = co_await h.call(5, "resources/read", user_params);
    EXPECT_EQ(user.at("result").at("contents").at(0).at("text"), "user 42");
    json::object missing_params{{"uri", "file:///missing"}};
    auto missing = co_await h.call(6, "resources/read", missing_params);
    EXPECT_EQ(error_code(missing), errc::resource_not_found);
    EXPECT_EQ(missing.at("error").at("data").at("uri"), "file:///missing");
  });
}

TEST(Server, SubscribersHearAboutUpdates) {
  run_test([]() -> asio::awaitable<void> {
    auto srv = demo_server();
    harness h(co_await asio::this_coro::executor, srv);
    co_await h.initialize();
    json::object params{{"uri", "file:///hello.txt"}};
    auto subscribed = co_await h.call(1, "resources/subscribe", params);
    EXPECT_EQ(subscribed.at("result"), json::object{});
    srv->notify_resource_updated("file:///hello.txt");
    srv->notify_resource_updated("file:///other.txt");
    auto update = co_await read_json(*h.client);
    EXPECT_EQ(update.at("method"), "notifications/resources/updated");
    EXPECT_EQ(update.at("params").at("uri"), "file:///hello.txt");
    const bool only_subscribed = co_await stays_silent(*h.client, 50ms);
    EXPECT_TRUE(only_subscribed);
    co_await h.call(2, "resources/unsubscribe", params);
    srv->notify_resource_updated("file:///hello.txt");
    const bool unsubscribed = co_await stays_silent(*h.client, 50ms);
    EXPECT_TRUE(unsubscribed);
  });
}

TEST(Server, GetsPromptsAndChecksTheirArguments) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize("2024-11-05");
    auto list = co_await h.call(1, "prompts/list");
    EXPECT_EQ(list.at("result").at("prompts").at(0).at("arguments").at(0).at("required"), true);
    json::object good{{"name", "review"}, {"arguments", {{"code", "x = 1"}, {"language", "python"}}}};
    auto prompt = co_await h.call(2, "prompts/get", good);
    const auto& messages = prompt.at("result").at("messages").as_array();
    EXPECT_EQ(messages.at(0).at("content").at("text"), "Review this python: x = 1");
    EXPECT_EQ(messages.at(1).at("content").at("type"), "text");  // audio degraded for 2024-11-05
    json::object missing{{"name", "review"}};
    json::object unknown{{"name", "nope"}};
    json::object not_string{{"name", "review"}, {"arguments", {{"code", 7}}}};
    auto missing_reply = co_await h.call(3, "prompts/get", missing);
    auto unknown_reply = co_await h.call(4, "prompts/get", unknown);
    auto not_string_reply = co_await h.call(5, "prompts/get", not_string);
    EXPECT_EQ(error_code(missing_reply), errc::invalid_params);
    EXPECT_EQ(error_code(unknown_reply), errc::invalid_params);
    EXPECT_EQ(error_code(not_string_reply), errc::invalid_params);
  });
}

TEST(Server, CompletesPromptArgumentsWithContext) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize();
    json::object params{{"ref", {{"type", "ref/prompt"}, {"name", "review"}}},
                        {"argument", {{"name", "language"}, {"value", "c"}}},
                        {"context", {{"arguments", {{"code", "int x;"}}}}}};
    auto reply = co_await h.call(1, "completion/complete", params);
    const auto& completion = reply.at("result").at("completion").as_object();
    EXPECT_EQ(completion.at("values"), (json::array{"c", "c++", "context:int x;"}));
    EXPECT_EQ(completion.at("total"), 3);
    EXPECT_EQ(completion.at("hasMore"), false);
    json::object none{{"ref", {{"type", "ref/prompt"}, {"name", "review"}}},
                      {"argument", {{"name", "code"}, {"value", ""}}}};
    auto empty = co_await h.call(2, "completion/complete", none);
    EXPECT_TRUE(empty.at("result").at("completion").at("values").as_array().empty());
    json::object bad{{"ref", {{"type", "ref/nothing"}}}, {"argument", {{"name", "a"}, {"value", ""}}}};
    auto bad_reply = co_await h.call(3, "completion/complete", bad);
    EXPECT_EQ(error_code(bad_reply), errc::invalid_params);
  });
}

TEST(Server, LogLevelFiltersMessages) {
  run_test([]() -> asio::awaitable<void> {
    harness h(co_await asio::this_coro::executor, demo_server());
    co_await h.initialize();
    json::object level{{"level", "warning"}};
    auto set = co_await h.call(1, "logging/setLevel", level);
    EXPECT_EQ(set.at("result"), json::object{});
    json::object call{{"name", "log"}};
    auto request = rpc_request(2, "tools/call", call);
    co_await write_json(*h.client, request);
    std::vector<json::value> notes;
    co_await h.reply_to(2, &notes);
    CO_ASSERT_TRUE(notes.size() == 2u);
    EXPECT_EQ(notes[0].at("params").at("level"), "warning");
    EXPECT_EQ(notes[0].at("params").at("logger"), "tests");
    EXPECT_EQ(notes[1].at("params").at("level"), "error");
    json::object bogus{{"level", "loud"}};
    auto bogus_reply = co_await h.call(3, "logging/setLevel", bogus);
    EXPECT_EQ(error_code(bogus_reply), errc::invalid_params);
  });
}

TEST(Server, SamplingGoesToTheClientThatDeclaredIt) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    harness with(ex, demo_server()), without(ex, demo_server());
    json::object caps{{"sampling", json::object{}}};
    co_await with.initialize("2025-11-25", caps);
    co_await without.initialize();
    json::object call{{"name", "ask"}};
    auto ask = rpc_request(1, "tools/call", call);
    co_await write_json(*with.client, ask);
    auto request = co_await read_json(*with.client);
    EXPECT_EQ(request.at("method"), "sampling/createMessage");
    json::object answer{{"jsonrpc", "2.0"},
                        {"id", request.at("id")},
                        {"result", {{"role", "assistant"},
                                    {"content", {{"type", "text"}, {"text", "42"}}},
                                    {"model", "test"}}}};
    co_await write_json(*with.client, answer);
    auto reply = co_await with.reply_to(1);
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "42");
    auto refused = co_await call_tool(without, 1, "ask");
    EXPECT_EQ(refused.at("result").at("isError"), true);
    EXPECT_NE(refused.at("result").at("content").at(0).at("text").as_string().find("sampling"),
              std::string::npos);
  });
}

TEST(Server, UrlElicitationIn20251125) {
  run_test([]() -> asio::awaitable<void> {
    auto srv = demo_server();
    srv->add_tool({"login", "Sends the user to a page"},
                  [](const json::object&, request_context& ctx) -> asio::awaitable<call_tool_result> {
                    auto answer = co_await ctx.elicit_url("Sign in", "https://example.com/login", "e-1");
                    co_return call_tool_result::text(std::string(answer.at("action").as_string()));
                  });
    harness h(co_await asio::this_coro::executor, srv);
    json::object caps{{"elicitation", {{"form", json::object{}}, {"url", json::object{}}}}};
    co_await h.initialize("2025-11-25", caps);
    json::object call{{"name", "login"}};
    auto request = rpc_request(1, "tools/call", call);
    co_await write_json(*h.client, request);
    auto ask = co_await read_json(*h.client);
    EXPECT_EQ(ask.at("method"), "elicitation/create");
    EXPECT_EQ(ask.at("params").at("mode"), "url");
    EXPECT_EQ(ask.at("params").at("url"), "https://example.com/login");
    EXPECT_EQ(ask.at("params").at("elicitationId"), "e-1");
    json::object answer{{"jsonrpc", "2.0"}, {"id", ask.at("id")}, {"result", {{"action", "accept"}}}};
    co_await write_json(*h.client, answer);
    auto reply = co_await h.reply_to(1);
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "accept");
  });
}

TEST(Server, ElicitationNeedsAVersionThatHasIt) {
  run_test([]() -> asio::awaitable<void> {
    auto ex = co_await asio::this_coro::executor;
    harness old(ex, demo_server()), recent(ex, demo_server());
    json::object caps{{"elicitation", json::object{}}};
    co_await old.initialize("2025-03-26", caps);
    co_await recent.initialize("2025-06-18", caps);
    auto refused = co_await call_tool(old, 1, "elicit");
    EXPECT_EQ(refused.at("result").at("isError"), true);
    json::object call{{"name", "elicit"}};
    auto elicit = rpc_request(1, "tools/call", call);
    co_await write_json(*recent.client, elicit);
    auto request = co_await read_json(*recent.client);
    EXPECT_EQ(request.at("method"), "elicitation/create");
    EXPECT_EQ(request.at("params").at("message"), "Proceed?");
    EXPECT_FALSE(request.at("params").as_object().contains("mode"));  // 2025-06-18 has no mode
    json::object answer{{"jsonrpc", "2.0"}, {"id", request.at("id")}, {"result", {{"action", "decline"}}}};
    co_await write_json(*recent.client, answer);
    auto reply = co_await recent.reply_to(1);
    EXPECT_EQ(reply.at("result").at("content").at(0).at("text"), "decline");
  });
}

}  // namespace
}  // namespace mcp::test
