#pragma once
// Where a server keeps its tasks (docs/tasks.md): a tool call the server runs
// in the background, which the client polls, answers and cancels by the
// task's id, and whose result outlives the request and the connection that
// started it. The task runs in the process that created it; its record lives
// here, so that whoever asks for it (another connection, another session
// with the same principal, another server of a cluster) finds it.

#include <mcp/export.hpp>
#include <mcp/protocol/types.hpp>  // task_status
#include <mcp/server/store_error.hpp>

#include <boost/asio/awaitable.hpp>
#include <boost/json/object.hpp>

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

namespace asio = boost::asio;
namespace json = boost::json;

/// What a task store keeps of one task.
struct MCP_API task_record {
  std::string id;  ///< unguessable: with no principal it is the only key to the task
  task_status status = task_status::working;                   ///< Where the task stands.
  std::optional<std::string> status_message = std::nullopt;     ///< The `statusMessage`: why it failed, say.
  std::chrono::system_clock::time_point created_at = {};       ///< When it was created.
  std::chrono::system_clock::time_point last_updated_at = {};  ///< When its record last changed.
  /// From creation; unset: kept until the server restarts (memory) or forever.
  std::optional<std::chrono::milliseconds> ttl = std::nullopt;
  std::optional<std::chrono::milliseconds> poll_interval = std::nullopt;  ///< The `pollInterval` suggested to the client.
  /// Who may see the task: the OAuth principal's identity, or (without
  /// OAuth) the session that created it in the 2025-11-25 era; empty for a
  /// 2026-07-28 task of an anonymous client, whose id is its only key.
  std::string owner = {};
  /// Which wire the task speaks: "2025-11-25" or "2026-07-28".
  std::string version = {};
  /// The input requests the task waits for (2026-07-28), by key.
  json::object input_requests = {};
  /// The request's result once it returned one: completed, or (2025-11-25)
  /// failed with a tool result whose `isError` is true.
  std::optional<json::object> result = std::nullopt;
  /// The JSON-RPC error of a task that failed without a result (its handler
  /// threw, or the node that ran it died).
  std::optional<json::object> error = std::nullopt;
  /// In a cluster, the node that runs the task (message_bus::node_id):
  /// another node fails the task once that node is dead. Empty otherwise.
  std::string node = {};

  /// When the store may forget it (created_at + ttl); max without a ttl.
  std::chrono::system_clock::time_point expires_at() const noexcept;
};

/// One page of task_store::list.
struct MCP_API task_record_page {
  std::vector<task_record> tasks;          ///< The page's records, oldest first.
  std::optional<std::string> next_cursor;  ///< The cursor of the next page; unset on the last.
};

/// Keeps task records. The server writes a task's record as it changes
/// (create, then put) from the process that runs it, and reads records
/// for every tasks/* request.
///
/// @par Thread safety
/// Called from every thread that serves; implementations synchronise.
class MCP_API task_store {
 public:
  virtual ~task_store() = default;

  /// Records a new task; returns once a find() anywhere would see it (the
  /// spec's "durably created"). Throws store_unavailable when it cannot,
  /// and std::length_error when the store is full.
  virtual asio::awaitable<void> create(task_record record) = 0;
  /// Replaces the record of a known task (its status, result...). A task
  /// unknown, expired or finished (is_terminal) is left as it is: a late
  /// write of the process that ran a task cancelled elsewhere loses.
  virtual asio::awaitable<void> put(task_record record) = 0;
  /// The record; nullopt when unknown or expired.
  virtual asio::awaitable<std::optional<task_record>> find(std::string id) = 0;
  /// The owner's tasks, oldest first, `limit` at most, from `cursor` (a
  /// next_cursor of an earlier page; empty: the first page).
  virtual asio::awaitable<task_record_page> list(std::string owner, std::string cursor, std::size_t limit) = 0;
};

/// Tasks in this process's memory: at most `max_tasks` records; each is
/// forgotten when its ttl has passed, and when the store is full the oldest
/// finished task makes room (a store full of running tasks refuses more).
MCP_API std::shared_ptr<task_store> make_memory_task_store(std::size_t max_tasks = 10000);

}  // namespace mcp
