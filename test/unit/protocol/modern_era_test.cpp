// The rules of the 2026-07-28 era around a handler, as plain functions: the
// methods the era removed, what completes a result, and what a listen
// stream honors, lets through and says.

#include "json_text.hpp"
#include "../../src/protocol/modern_era.hpp"

#include <mcp/protocol/methods.hpp>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

namespace mcp::detail {
namespace {

using test::object;  // json_text.hpp

TEST(ModernEraRules, ExactlyFiveLegacyMethodsAreRemoved) {
  for (const auto* removed : {methods::initialize, methods::ping, methods::logging_set_level,
                              methods::resources_subscribe, methods::resources_unsubscribe})
    EXPECT_TRUE(removed_in_modern_era(removed)) << removed;
  // Unknown to the era is not removed from it: tasks/* is answered as unknown.
  for (const auto* kept : {methods::tools_call, methods::server_discover, methods::tasks_get, "nope"})
    EXPECT_FALSE(removed_in_modern_era(kept)) << kept;
}

TEST(ModernEraRules, AResultIsCompletedWithItsTypeCachingHintsAndServerInfo) {
  const auto server = modern_server_info({"srv", "1.0"});
  const request listing{request_id{1}, methods::tools_list, {}};
  EXPECT_EQ(json::serialize(finish_modern_result(listing, object(R"({"tools":[]})"), server)),
            R"({"tools":[],"resultType":"complete","ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}}})");
  // The handler's own hints stand, unless the request is the retry of a multi-round one.
  EXPECT_EQ(json::serialize(finish_modern_result(listing, object(R"({"ttlMs":5,"cacheScope":"public"})"), server)),
            R"({"ttlMs":5,"cacheScope":"public","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}}})");
  const request retry{request_id{2}, methods::resources_read, object(R"({"requestState":"s"})")};
  EXPECT_EQ(json::serialize(finish_modern_result(retry, object(R"({"ttlMs":5,"cacheScope":"public"})"), server)),
            R"({"ttlMs":0,"cacheScope":"private","resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1.0"}}})");
  // A call's result carries no hints; a serverInfo already there stays.
  const request call{request_id{3}, methods::tools_call, {}};
  EXPECT_EQ(json::serialize(finish_modern_result(call, object(R"({"_meta":{"io.modelcontextprotocol/serverInfo":1}})"), server)),
            R"({"_meta":{"io.modelcontextprotocol/serverInfo":1},"resultType":"complete"})");
}

TEST(ModernEraRules, AListenStreamHonorsWhatTheCapabilitiesAnnounce) {
  const auto caps = object(R"({"tools":{"listChanged":true},"resources":{"subscribe":true}})");
  const auto honored = listen_filter::read(
      object(R"({"notifications":{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["a://x"]}})"),
      caps, {});
  EXPECT_EQ(json::serialize(listen_acknowledgement(request_id{7}, honored)),
            R"({"notifications":{"toolsListChanged":true,"resourceSubscriptions":["a://x"]},"_meta":{"io.modelcontextprotocol/subscriptionId":7}})");
  EXPECT_TRUE(honored.admits({methods::notifications_tools_list_changed, {}}));
  EXPECT_FALSE(honored.admits({methods::notifications_prompts_list_changed, {}}));
  EXPECT_TRUE(honored.admits({methods::notifications_resources_updated, object(R"({"uri":"a://x"})")}));
  EXPECT_FALSE(honored.admits({methods::notifications_resources_updated, object(R"({"uri":"a://y"})")}));
  EXPECT_FALSE(honored.admits({methods::notifications_message, {}}));
  EXPECT_EQ(json::serialize(listen_closing_result(request_id{"s"})),
            R"({"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"s"}})");
}

TEST(ModernEraRules, TaskNotificationsNeedTheExtensionOnBothSides) {
  const auto tasks = object(R"({"extensions":{"io.modelcontextprotocol/tasks":{}}})");
  const auto asked = object(R"({"notifications":{"taskIds":["t1","t2"]}})");
  const auto honored = listen_filter::read(asked, tasks, tasks);
  EXPECT_EQ(json::serialize(honored.to_json()), R"({"taskIds":["t1","t2"]})");
  EXPECT_TRUE(honored.admits({methods::notifications_tasks, object(R"({"taskId":"t2","status":"working"})")}));
  EXPECT_FALSE(honored.admits({methods::notifications_tasks, object(R"({"taskId":"t3","status":"working"})")}));
  // A server without the extension honors none; a client without it is refused.
  EXPECT_TRUE(listen_filter::read(asked, {}, tasks).task_ids.empty());
  try {
    listen_filter::read(asked, tasks, {});
    ADD_FAILURE() << "taskIds without the extension";
  } catch (const protocol_error& e) {
    EXPECT_EQ(e.code(), errc::missing_client_capability);
    EXPECT_EQ(json::serialize(e.error().data),
              R"({"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}})");
  }
}

TEST(ModernEraRules, AMalformedListenFilterIsInvalidParams) {
  const json::object caps;
  for (const auto* params : {R"({"notifications":1})", R"({"notifications":{"toolsListChanged":"yes"}})",
                             R"({"notifications":{"resourceSubscriptions":"a://x"}})",
                             R"({"notifications":{"resourceSubscriptions":[1]}})"}) {
    try {
      listen_filter::read(object(params), caps, {});
      ADD_FAILURE() << params;
    } catch (const protocol_error& e) {
      EXPECT_EQ(e.code(), errc::invalid_params) << params;
      EXPECT_TRUE(std::string_view(e.what()).starts_with("Invalid params: /params/notifications")) << e.what();
    }
  }
}

}  // namespace
}  // namespace mcp::detail
