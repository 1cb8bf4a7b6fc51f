#pragma once
// The tasks a 2025-11-25 server asks the client to run (basic/utilities/
// tasks: task-augmented elicitation/create and sampling/createMessage): the
// client answers the request with a CreateTaskResult at once, runs its own
// handler in the background, and answers the server's tasks/get,
// tasks/result, tasks/list and tasks/cancel about them. On with
// client_options::host_tasks.

#include <mcp/protocol/jsonrpc.hpp>
#include <mcp/server/task_store.hpp>

#include "../detail/lazy_event.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/cancellation_signal.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace mcp::detail {

class hosted_tasks {
 public:
  /// Runs the request a task stands for (the client's own handler).
  using runner = std::function<asio::awaitable<json::object>(mcp::request)>;

  explicit hosted_tasks(asio::any_io_executor ex) : executor_(std::move(ex)) {}

  /// The capability the client declares (initialize, 2025-11-25).
  static json::object capability();
  /// Whether `req` asks to be run as a task of ours.
  static bool asks_for_task(const mcp::request& req);
  /// Starts the task `req` asks for; returns its CreateTaskResult.
  json::object start(mcp::request req, runner run);
  /// Whether `method` is one of the tasks/* requests answered here.
  static bool serves(std::string_view method);
  /// tasks/get, tasks/result (waits for the end), tasks/list, tasks/cancel.
  asio::awaitable<json::object> serve(const mcp::request& req);

 private:
  struct task {
    explicit task(asio::any_io_executor ex) : ended(std::move(ex)) {}
    task_record record;
    asio::cancellation_signal stop;
    lazy_event ended;
  };
  static asio::awaitable<void> run_task(std::shared_ptr<task> t, mcp::request req, runner run);
  std::shared_ptr<task> find(const json::object& params);
  // Forgets expired tasks, and finished ones beyond the bound.
  void prune();

  asio::any_io_executor executor_;
  std::map<std::string, std::shared_ptr<task>> tasks_;  // by id
};

}  // namespace mcp::detail
