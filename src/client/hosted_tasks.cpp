#include "hosted_tasks.hpp"

#include "../detail/random.hpp"
#include "../protocol/read_params.hpp"
#include "../protocol/task_rules.hpp"
#include "../server/tasks/task_wire.hpp"

#include <mcp/error.hpp>
#include <mcp/protocol/methods.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <algorithm>

namespace mcp::detail {

namespace {

// At most this many tasks are kept; past it the oldest finished ones go,
// and a request for one more while all of them run is refused (-32603).
constexpr std::size_t max_tasks = 100;
constexpr std::chrono::milliseconds default_ttl = std::chrono::hours(1);
constexpr std::chrono::milliseconds max_ttl = std::chrono::hours(24);
constexpr std::chrono::milliseconds poll_interval{500};

}  // namespace

json::object hosted_tasks::capability() {
  return {{"list", json::object{}},
          {"cancel", json::object{}},
          {"requests", {{"elicitation", {{"create", json::object{}}}}, {"sampling", {{"createMessage", json::object{}}}}}}};
}

bool hosted_tasks::asks_for_task(const mcp::request& req) {
  return task_asked(req.params) &&
         (req.method == methods::elicitation_create || req.method == methods::sampling_create_message);
}

bool hosted_tasks::serves(std::string_view method) {
  return method == methods::tasks_get || method == methods::tasks_result || method == methods::tasks_list ||
         method == methods::tasks_cancel;
}

json::object hosted_tasks::start(mcp::request req, runner run) {
  prune();
  auto t = std::make_shared<task>(executor_);
  auto& r = t->record;
  r.id = random_hex(16);
  r.version = "2025-11-25";
  r.created_at = r.last_updated_at = std::chrono::system_clock::now();
  r.ttl = task_ttl(task_kind::utility, req.params, default_ttl, max_ttl);
  r.poll_interval = poll_interval;
  req.params.erase("task");  // the handler sees the request itself
  tasks_[r.id] = t;
  auto created = created_task_json(r);
  asio::co_spawn(executor_, run_task(t, std::move(req), std::move(run)),
                 asio::bind_cancellation_slot(t->stop.slot(), asio::detached));
  return created;
}

asio::awaitable<void> hosted_tasks::run_task(std::shared_ptr<task> t, mcp::request req, runner run) {
  std::optional<json::object> result;
  std::optional<rpc_error> failure;
  try {
    result = co_await run(std::move(req));
  } catch (const protocol_error& e) {
    failure = e.error();
  } catch (const std::exception& e) {
    failure = rpc_error{errc::internal_error, std::string("Internal error: ") + e.what(), nullptr};
  }
  auto& r = t->record;
  if (result ? complete(r, std::move(*result), task_kind::utility) : fail(r, *failure))
    r.last_updated_at = std::chrono::system_clock::now();
  t->ended.notify();
}

std::shared_ptr<hosted_tasks::task> hosted_tasks::find(const json::object& params) {
  const auto it = tasks_.find(read_params_of<method::tasks_get>(params).task_id);
  if (it == tasks_.end() || it->second->record.expires_at() <= std::chrono::system_clock::now()) task_not_found();
  return it->second;
}

asio::awaitable<json::object> hosted_tasks::serve(const mcp::request& req) {
  if (req.method == methods::tasks_list) {
    prune();
    list_tasks_result listed;
    for (const auto& [id, t] : tasks_) listed.tasks.push_back(legacy_task(t->record));
    co_return to_json_value(std::move(listed)).as_object();
  }
  auto t = find(req.params);
  auto& r = t->record;
  if (req.method == methods::tasks_get) co_return task_json(r);
  if (req.method == methods::tasks_cancel) {
    if (is_terminal(r.status)) check_cancel_of_ended(r.status, task_kind::utility);  // (throws)
    cancel(r, "Cancelled by the server");
    r.last_updated_at = std::chrono::system_clock::now();
    t->stop.emit(asio::cancellation_type::all);
    co_return task_json(r);
  }
  // tasks/result: blocks until the task ends (or the server cancels this request).
  while (!is_terminal(r.status)) {
    co_await t->ended.timer().async_wait(asio::as_tuple(asio::use_awaitable));
    const auto state = co_await asio::this_coro::cancellation_state;
    if (state.cancelled() != asio::cancellation_type::none)
      throw mcp::error(asio::error::operation_aborted);
  }
  co_return finished_task_result(r);
}

void hosted_tasks::prune() {
  const auto now = std::chrono::system_clock::now();
  std::erase_if(tasks_, [&](const auto& entry) { return entry.second->record.expires_at() <= now; });
  while (tasks_.size() >= max_tasks) {
    auto oldest = tasks_.end();
    for (auto it = tasks_.begin(); it != tasks_.end(); ++it)
      if (is_terminal(it->second->record.status) &&
          (oldest == tasks_.end() || it->second->record.created_at < oldest->second->record.created_at))
        oldest = it;
    if (oldest == tasks_.end()) throw protocol_error(errc::internal_error, "Internal error: too many tasks are running");
    tasks_.erase(oldest);
  }
}

}  // namespace mcp::detail
