// The rules of tasks as data, without a server: which kind each revision
// speaks, when a call becomes a task, which tasks/* methods each kind
// answers, ttls, owners, and how statuses move (docs/tasks.md's table).

#include "json_text.hpp"
#include "../../src/protocol/task_rules.hpp"

#include <mcp/protocol/methods.hpp>
#include <mcp/server/task_store.hpp>  // task_record: what the server runs the rules on

#include <boost/json/serialize.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace mcp::detail {
namespace {

using namespace std::chrono_literals;
using v = protocol_version;

// The error code `action` throws; 0 when it throws none.
int refusal_code(const std::function<void()>& action) {
  try {
    action();
  } catch (const protocol_error& e) {
    return e.code().value();
  }
  return 0;
}

TEST(TaskRules, EachRevisionSpeaksOneKindOfTasks) {
  EXPECT_EQ(task_kind_of(v::v2024_11_05), task_kind::none);
  EXPECT_EQ(task_kind_of(v::v2025_03_26), task_kind::none);
  EXPECT_EQ(task_kind_of(v::v2025_06_18), task_kind::none);
  EXPECT_EQ(task_kind_of(v::v2025_11_25), task_kind::utility);
  EXPECT_EQ(task_kind_of(v::v2026_07_28), task_kind::extension);
}

TEST(TaskRules, TheExtensionIsDeclaredUnderExtensions) {
  EXPECT_TRUE(declares_tasks_extension(test::object(R"({"extensions":{"io.modelcontextprotocol/tasks":{}}})")));
  EXPECT_FALSE(declares_tasks_extension(test::object(R"({"extensions":{"other":{}}})")));
  EXPECT_FALSE(declares_tasks_extension(test::object(R"({"extensions":[]})")));
  EXPECT_FALSE(declares_tasks_extension(test::object(R"({"tasks":{}})")));

  const auto refusal = missing_tasks_extension("tool slow");
  EXPECT_EQ(refusal.code(), errc::missing_client_capability);
  EXPECT_EQ(json::serialize(refusal.error().data),
            R"({"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}})");
}

TEST(TaskRules, WhenACallRunsAsATask) {
  struct row {
    task_kind kind;
    task_support support;
    bool declared;  // the client declared the extension (2026-07-28)
    bool asked;     // params.task (2025-11-25)
    int refusal;    // 0: none
    bool as_task;
  };
  const auto forbidden = task_support::forbidden, optional = task_support::optional,
             required = task_support::required;
  const std::vector<row> rows{
      // Before 2025-11-25 every tool runs as a plain call, whatever it says.
      {task_kind::none, required, false, true, 0, false},
      // 2025-11-25: the client decides with params.task, within what the tool allows.
      {task_kind::utility, forbidden, false, false, 0, false},
      {task_kind::utility, forbidden, false, true, errc::method_not_found, false},
      {task_kind::utility, optional, false, false, 0, false},
      {task_kind::utility, optional, false, true, 0, true},
      {task_kind::utility, required, false, false, errc::method_not_found, false},
      {task_kind::utility, required, false, true, 0, true},
      // The extension: the server decides for a client that declared it.
      {task_kind::extension, forbidden, true, false, 0, false},
      {task_kind::extension, optional, true, false, 0, true},
      {task_kind::extension, required, true, false, 0, true},
      {task_kind::extension, optional, false, true, 0, false},  // params.task means nothing here
      {task_kind::extension, required, false, false, errc::missing_client_capability, false},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(testing::Message() << "kind " << static_cast<int>(r.kind) << ", support "
                                    << static_cast<int>(r.support) << ", declared " << r.declared << ", asked "
                                    << r.asked);
    bool as_task = false;
    EXPECT_EQ(refusal_code([&] { as_task = call_runs_as_task(r.kind, r.support, r.declared, r.asked, "t"); }),
              r.refusal);
    EXPECT_EQ(as_task, r.as_task);
  }
}

TEST(TaskRules, EachKindAnswersItsOwnMethods) {
  struct row {
    std::string_view method;
    protocol_version version;
    bool declared;
    int refusal;
  };
  const std::vector<row> rows{
      {methods::tasks_get, v::v2025_06_18, false, errc::method_not_found},
      {methods::tasks_get, v::v2025_11_25, false, 0},
      {methods::tasks_list, v::v2025_11_25, false, 0},
      {methods::tasks_result, v::v2025_11_25, false, 0},
      {methods::tasks_cancel, v::v2025_11_25, false, 0},
      {methods::tasks_update, v::v2025_11_25, false, errc::method_not_found},
      {methods::tasks_get, v::v2026_07_28, true, 0},
      {methods::tasks_update, v::v2026_07_28, true, 0},
      {methods::tasks_cancel, v::v2026_07_28, true, 0},
      {methods::tasks_list, v::v2026_07_28, true, errc::method_not_found},
      {methods::tasks_result, v::v2026_07_28, true, errc::method_not_found},
      {methods::tasks_get, v::v2026_07_28, false, errc::missing_client_capability},
  };
  for (const auto& r : rows) {
    SCOPED_TRACE(testing::Message() << r.method << " at " << to_string(r.version) << ", declared " << r.declared);
    EXPECT_EQ(refusal_code([&] { admit_tasks_method(r.method, r.version, r.declared); }), r.refusal);
  }
}

TEST(TaskRules, AClientsTtlIsClampedAndOnlyTheUtilityTakesOne) {
  const auto fallback = 1h, most = 24h;
  const auto ttl = [&](task_kind kind, std::optional<json::value> asked) {
    json::object params{{"name", "t"}};
    if (asked) params["task"] = json::object{{"ttl", *asked}};
    return task_ttl(kind, params, fallback, most);
  };
  EXPECT_EQ(ttl(task_kind::utility, std::nullopt), fallback);
  EXPECT_EQ(ttl(task_kind::utility, json::value(60'000)), 60s);
  EXPECT_EQ(ttl(task_kind::utility, json::value(0)), 1ms);
  EXPECT_EQ(ttl(task_kind::utility, json::value(-5)), 1ms);
  EXPECT_EQ(ttl(task_kind::utility, json::value(1.5)), 1ms);
  EXPECT_EQ(ttl(task_kind::utility, json::value(1e300)), most);  // beyond any integer type
  EXPECT_EQ(ttl(task_kind::utility, json::value(std::uint64_t{1} << 63)), most);
  EXPECT_EQ(ttl(task_kind::utility, json::value("60000")), fallback);  // not a number
  EXPECT_EQ(ttl(task_kind::extension, json::value(60'000)), fallback);  // the server decides
}

TEST(TaskRules, APrincipalOwnsItsTasksAndAnAnonymousExtensionTaskHasNoOwner) {
  const std::string alice = "alice";
  EXPECT_EQ(task_owner(task_kind::utility, &alice, "s1"), "principal:alice");
  EXPECT_EQ(task_owner(task_kind::extension, &alice, "s1"), "principal:alice");
  EXPECT_EQ(task_owner(task_kind::utility, nullptr, "s1"), "session:s1");
  EXPECT_EQ(task_owner(task_kind::extension, nullptr, "s1"), "");

  EXPECT_TRUE(may_see_task("principal:alice", "principal:alice"));
  EXPECT_FALSE(may_see_task("principal:alice", "principal:bob"));
  EXPECT_FALSE(may_see_task("principal:alice", ""));
  EXPECT_FALSE(may_see_task("session:s1", "session:s2"));
  EXPECT_TRUE(may_see_task("", "principal:bob"));  // an anonymous extension task: its id is its key
  EXPECT_TRUE(may_see_task("", ""));
}

TEST(TaskRules, StatusesMoveBetweenWorkingAndInputRequiredUntilOneOfTheEnds) {
  task_record task;
  EXPECT_EQ(task.status, task_status::working);
  EXPECT_FALSE(resume(task));  // already working
  EXPECT_TRUE(await_input(task));
  EXPECT_EQ(task.status, task_status::input_required);
  EXPECT_TRUE(resume(task));
  EXPECT_EQ(task.status, task_status::working);

  // Each end is final: nothing moves a task out of it.
  const std::vector<std::function<bool(task_record&)>> ends{
      [](task_record& t) { return complete(t, json::object{{"content", json::array{}}}, task_kind::utility); },
      [](task_record& t) { return fail(t, rpc_error{errc::internal_error, "boom", nullptr}); },
      [](task_record& t) { return cancel(t, "Cancelled by the client"); },
  };
  for (std::size_t i = 0; i < ends.size(); ++i) {
    SCOPED_TRACE(i);
    task_record t;
    t.input_requests = test::object(R"({"k":{"method":"roots/list"}})");
    await_input(t);
    ASSERT_TRUE(ends[i](t));
    const auto ended = t.status;
    EXPECT_TRUE(is_terminal(ended));
    EXPECT_TRUE(t.input_requests.empty());  // nothing is awaited any more
    for (const auto& other : ends) EXPECT_FALSE(other(t));
    EXPECT_FALSE(await_input(t));
    EXPECT_FALSE(resume(t));
    EXPECT_EQ(t.status, ended);
  }
}

TEST(TaskRules, AToolErrorFailsAUtilityTaskAndCompletesAnExtensionTask) {
  const auto tool_error = test::object(R"({"content":[],"isError":true})");
  task_record utility;
  complete(utility, tool_error, task_kind::utility);
  EXPECT_EQ(utility.status, task_status::failed);
  EXPECT_EQ(utility.status_message, "The tool reported an error");
  ASSERT_TRUE(utility.result);  // tasks/result gives it as it was
  EXPECT_EQ(json::serialize(*utility.result), R"({"content":[],"isError":true})");

  task_record extension;
  complete(extension, tool_error, task_kind::extension);
  EXPECT_EQ(extension.status, task_status::completed);

  task_record fine;
  complete(fine, test::object(R"({"content":[]})"), task_kind::utility);
  EXPECT_EQ(fine.status, task_status::completed);
  EXPECT_FALSE(fine.status_message);
}

TEST(TaskRules, AFailedTaskKeepsItsErrorAsTheWireWritesIt) {
  task_record task;
  fail(task, rpc_error{-32602, "Invalid params: x", json::object{{"why", "y"}}});
  EXPECT_EQ(task.status, task_status::failed);
  EXPECT_EQ(task.status_message, "Invalid params: x");
  ASSERT_TRUE(task.error);
  EXPECT_EQ(json::serialize(*task.error), R"({"code":-32602,"message":"Invalid params: x","data":{"why":"y"}})");
}

TEST(TaskRules, CancellingAnEndedTaskIsRefusedIn2025AndAckedByTheExtension) {
  task_record done;
  complete(done, json::object{}, task_kind::utility);
  EXPECT_EQ(refusal_code([&] { check_cancel_of_ended(done.status, task_kind::utility); }), errc::invalid_params);
  EXPECT_EQ(refusal_code([&] { check_cancel_of_ended(done.status, task_kind::extension); }), 0);
  EXPECT_EQ(refusal_code([] { task_not_found(); }), errc::invalid_params);
}

}  // namespace
}  // namespace mcp::detail
