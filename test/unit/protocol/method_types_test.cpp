// The typed method table: a tag for every method of the table, and for each
// tag, params and results that read from and write back to what the official
// schema of their revision describes, byte for byte and valid against it.

#include <mcp/json/validate.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include "spec_schema.hpp"

#include <boost/json.hpp>

#include <gtest/gtest.h>

#include <set>
#include <string_view>

namespace {

using namespace mcp;

TEST(MethodTypes, EveryMethodOfTheTableHasOneTagOfItsKind) {
  std::set<std::string_view> tagged;
  std::apply(
      [&](auto... tags) {
        (
            [&](auto tag) {
              using T = decltype(tag);
              EXPECT_TRUE(tagged.insert(T::name).second) << T::name << " tagged twice";
              ASSERT_NE(T::info(), nullptr) << T::name;
              EXPECT_EQ(T::info()->name, T::name);
              EXPECT_EQ(T::info()->kind, T::kind) << T::name;
              EXPECT_EQ(T::kind == method_kind::notification, std::is_void_v<typename T::result>) << T::name;
            }(tags),
            ...);
      },
      method::all{});
  EXPECT_EQ(tagged.size(), all_methods().size());
  for (const auto& m : all_methods()) EXPECT_TRUE(tagged.contains(m.name)) << m.name << " has no tag";
}

constexpr char own_method_name[] = "example/own";

TEST(MethodTypes, AnApplicationsOwnTagHasNoRowInTheTable) {
  using own = method::request<own_method_name, empty_params, empty_result>;
  EXPECT_EQ(own::name, "example/own");
  EXPECT_EQ(own::info(), nullptr);
}

// What the schema requires around a 2026-07-28 message that the protocol
// layer adds: the envelope of a request, the resultType of a result.
constexpr std::string_view modern_request_meta =
    R"({"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}})";

struct sample {
  std::string_view method;
  std::string_view revision;  // the schema it is checked against
  std::string_view params;    // empty: none to check
  std::string_view params_def;
  std::string_view result;
  std::string_view result_def;
};

// clang-format off
const sample samples[] = {
    {methods::initialize, "2025-11-25", R"({"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"c","version":"1"}})",
     "InitializeRequestParams", "", ""},
    {methods::ping, "2025-11-25", "{}", "", "{}", "EmptyResult"},
    {methods::server_discover, "2026-07-28", "", "", R"({"supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"instructions":"hi"})", "DiscoverResult"},
    {methods::tools_list, "2025-11-25", R"({"cursor":"c1"})", "PaginatedRequestParams",
     R"({"tools":[{"name":"echo","description":"Echoes","inputSchema":{"type":"object"}}],"nextCursor":"c2"})", "ListToolsResult"},
    {methods::tools_call, "2025-11-25", R"({"name":"echo","arguments":{"text":"hi"}})", "CallToolRequestParams",
     R"({"content":[{"type":"text","text":"hi"}],"isError":true})", "CallToolResult"},
    {methods::resources_list, "2025-11-25", "{}", "PaginatedRequestParams",
     R"({"resources":[{"uri":"file:///a","name":"a","mimeType":"text/plain"}]})", "ListResourcesResult"},
    {methods::resources_templates_list, "2025-11-25", "{}", "PaginatedRequestParams",
     R"({"resourceTemplates":[{"uriTemplate":"file:///{path}","name":"files"}],"nextCursor":"n"})", "ListResourceTemplatesResult"},
    {methods::resources_read, "2025-11-25", R"({"uri":"file:///a"})", "ReadResourceRequestParams",
     R"({"contents":[{"uri":"file:///a","mimeType":"text/plain","text":"x"}]})", "ReadResourceResult"},
    {methods::resources_subscribe, "2025-11-25", R"({"uri":"file:///a"})", "SubscribeRequestParams", "{}", "EmptyResult"},
    {methods::resources_unsubscribe, "2025-11-25", R"({"uri":"file:///a"})", "UnsubscribeRequestParams", "{}", "EmptyResult"},
    {methods::prompts_list, "2025-11-25", R"({"cursor":"c"})", "PaginatedRequestParams",
     R"({"prompts":[{"name":"greet","arguments":[{"name":"who","required":true}]}]})", "ListPromptsResult"},
    {methods::prompts_get, "2025-11-25", R"({"name":"greet","arguments":{"who":"you"}})", "GetPromptRequestParams",
     R"({"messages":[{"role":"user","content":{"type":"text","text":"hello you"}}],"description":"d"})", "GetPromptResult"},
    {methods::completion_complete, "2025-11-25",
     R"({"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"who","value":"y"},"context":{"arguments":{"lang":"en"}}})",
     "CompleteRequestParams", R"({"completion":{"values":["you"],"total":1,"hasMore":false}})", "CompleteResult"},
    {methods::logging_set_level, "2025-11-25", R"({"level":"warning"})", "SetLevelRequestParams", "{}", "EmptyResult"},
    {methods::subscriptions_listen, "2026-07-28", R"({"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}})",
     "SubscriptionsListenRequestParams", "", ""},
    {methods::tasks_get, "2025-11-25", R"({"taskId":"t1"})", "GetTaskRequest/properties/params",
     R"({"taskId":"t1","status":"working","createdAt":"2026-11-25T00:00:00Z","lastUpdatedAt":"2026-11-25T00:00:01Z","ttl":null,"pollInterval":500})",
     "GetTaskResult"},
    {methods::tasks_list, "2025-11-25", "{}", "PaginatedRequestParams",
     R"({"tasks":[{"taskId":"t1","status":"completed","createdAt":"2026-11-25T00:00:00Z","lastUpdatedAt":"2026-11-25T00:00:01Z","ttl":60000}]})",
     "ListTasksResult"},
    {methods::tasks_result, "2025-11-25", R"({"taskId":"t1"})", "GetTaskPayloadRequest/properties/params",
     R"({"content":[{"type":"text","text":"done"}]})", "GetTaskPayloadResult"},
    {methods::tasks_cancel, "2025-11-25", R"({"taskId":"t1"})", "CancelTaskRequest/properties/params",
     R"({"taskId":"t1","status":"cancelled","statusMessage":"by the user","createdAt":"2026-11-25T00:00:00Z","lastUpdatedAt":"2026-11-25T00:00:01Z","ttl":null})",
     "CancelTaskResult"},
    {methods::sampling_create_message, "2025-11-25",
     R"({"messages":[{"role":"user","content":{"type":"text","text":"2+2?"}}],"maxTokens":100,"systemPrompt":"be brief","includeContext":"none","temperature":0.5,"stopSequences":["."],"modelPreferences":{"hints":[{"name":"claude"}]}})",
     "CreateMessageRequestParams", R"({"role":"assistant","content":{"type":"text","text":"4"},"model":"m","stopReason":"endTurn"})",
     "CreateMessageResult"},
    {methods::elicitation_create, "2025-11-25",
     R"({"mode":"form","message":"name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}})",
     "ElicitRequestParams", R"({"action":"accept","content":{"name":"Ada"}})", "ElicitResult"},
    {methods::roots_list, "2025-11-25", "{}", "", R"({"roots":[{"uri":"file:///home","name":"home"}]})", "ListRootsResult"},
    {methods::notifications_initialized, "2025-11-25", "{}", "", "", ""},
    {methods::notifications_cancelled, "2025-11-25", R"({"requestId":7,"reason":"no longer needed"})", "CancelledNotificationParams", "", ""},
    {methods::notifications_progress, "2025-11-25", R"({"progressToken":"p1","progress":5E-1,"total":2.5E0,"message":"half"})",
     "ProgressNotificationParams", "", ""},
    {methods::notifications_message, "2025-11-25", R"({"level":"error","data":{"why":"x"},"logger":"db"})", "LoggingMessageNotificationParams", "", ""},
    {methods::notifications_resources_updated, "2025-11-25", R"({"uri":"file:///a"})", "ResourceUpdatedNotificationParams", "", ""},
    {methods::notifications_resources_list_changed, "2025-11-25", "{}", "", "", ""},
    {methods::notifications_tools_list_changed, "2025-11-25", "{}", "", "", ""},
    {methods::notifications_prompts_list_changed, "2025-11-25", "{}", "", "", ""},
    {methods::notifications_roots_list_changed, "2025-11-25", "{}", "", "", ""},
    {methods::notifications_subscriptions_acknowledged, "2026-07-28", R"({"notifications":{"promptsListChanged":true}})",
     "SubscriptionsAcknowledgedNotificationParams", "", ""},
    {methods::notifications_elicitation_complete, "2025-11-25", R"({"elicitationId":"e1"})",
     "ElicitationCompleteNotification/properties/params", "", ""},
    {methods::notifications_tasks_status, "2025-11-25",
     R"({"taskId":"t1","status":"failed","createdAt":"2026-11-25T00:00:00Z","lastUpdatedAt":"2026-11-25T00:00:01Z","ttl":null})",
     "TaskStatusNotificationParams", "", ""},
};
// clang-format on

// The validator of definition `def` ("Name" or "Name/properties/member") of a schema.
schema_validator validator_of(const test::spec_schema& schema, std::string_view def) {
  std::string pointer = "#/$defs/";
  pointer += def;
  return schema_validator(json::object{{"$ref", pointer}, {"$defs", schema.definitions()}});
}

// Reads `text` as T and writes it back; the same JSON must come out.
template <class T>
json::value round_trip(std::string_view text) {
  const auto given = json::parse(text);
  auto written = to_json_value(from_json<T>(given));
  EXPECT_EQ(written, given) << "read and written again as its type";
  return written;
}

// The form the schema checks: with what the protocol layer adds in the modern era.
json::value as_sent(json::value message, std::string_view revision, bool is_result) {
  if (revision != "2026-07-28") return message;
  auto& object = message.as_object();
  if (is_result) {
    object["resultType"] = "complete";
    object["ttlMs"] = 0;
    object["cacheScope"] = "public";
  } else {
    object["_meta"] = json::parse(modern_request_meta);
  }
  return message;
}

void check(const test::spec_schema& schema, std::string_view revision, std::string_view def, const json::value& sent) {
  if (def.empty()) return;
  ASSERT_TRUE(schema.has(def.substr(0, def.find('/')))) << def;
  const auto errors = validator_of(schema, def).validate(sent);
  for (const auto& e : errors) ADD_FAILURE() << revision << " " << def << ": " << e.to_string();
}

template <class Tag>
void check_tag(const sample& s, const test::spec_schema& schema) {
  SCOPED_TRACE(std::string(Tag::name));
  if (!s.params.empty()) {
    const auto written = round_trip<typename Tag::params>(s.params);
    check(schema, s.revision, s.params_def, as_sent(written, s.revision, false));
  }
  // initialize's result keeps its version as a protocol_version: to_json and
  // parse_initialize_result (lifecycle.hpp) write and read it.
  if constexpr (!std::is_void_v<typename Tag::result> && json_convertible<typename Tag::result>) {
    if (!s.result.empty()) {
      const auto written = round_trip<typename Tag::result>(s.result);
      check(schema, s.revision, s.result_def, as_sent(written, s.revision, true));
    }
  }
}

// The tasks extension (SEP-2663) is outside every revision's schema: its
// forms are held to what the extension's text gives, read and written back.
TEST(MethodTypes, TheTasksExtensionsFormsReadAndWriteAsTheyCame) {
  namespace extension = method::tasks_extension;
  round_trip<extension::tasks_get::params>(R"({"taskId":"t1"})");
  round_trip<extension::tasks_get::result>(
      R"({"taskId":"t1","status":"input_required","createdAt":"2026-11-25T00:00:00Z",)"
      R"("lastUpdatedAt":"2026-11-25T00:00:01Z","ttlMs":60000,"pollIntervalMs":1000,)"
      R"("inputRequests":{"k":{"method":"roots/list"}}})");
  round_trip<extension::tasks_get::result>(
      R"({"taskId":"t1","status":"failed","statusMessage":"boom","createdAt":"2026-11-25T00:00:00Z",)"
      R"("lastUpdatedAt":"2026-11-25T00:00:01Z","ttlMs":null,"error":{"code":-32603,"message":"boom"}})");
  round_trip<extension::tasks_update::params>(R"({"taskId":"t1","inputResponses":{"k":{"roots":[]}}})");
  round_trip<extension::notifications_tasks::params>(
      R"({"taskId":"t1","status":"completed","createdAt":"2026-11-25T00:00:00Z",)"
      R"("lastUpdatedAt":"2026-11-25T00:00:01Z","ttlMs":60000,"result":{"content":[]}})");
}

TEST(MethodTypes, ParamsAndResultsAreTheOfficialSchemasForms) {
  const auto dir = test::spec_dir();
  if (dir.empty()) GTEST_SKIP() << "spec folder not found: '" << CADUCEUS_SPEC_DIR << "'";
  const test::spec_schema legacy(dir / "2025-11-25" / "schema.json");
  const test::spec_schema modern(dir / "2026-07-28" / "schema.json");
  ASSERT_TRUE(legacy.ok() && modern.ok());
  std::set<std::string_view> checked;
  std::apply(
      [&](auto... tags) {
        (
            [&](auto tag) {
              using T = decltype(tag);
              for (const auto& s : samples)
                if (s.method == T::name) {
                  checked.insert(T::name);
                  check_tag<T>(s, s.revision == "2026-07-28" ? modern : legacy);
                }
            }(tags),
            ...);
      },
      method::all{});
  EXPECT_EQ(checked.size(), all_methods().size());
}

}  // namespace
