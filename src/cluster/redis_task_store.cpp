// Task records in Redis (docs/scale-out.md, "Tasks"), so that any node of a
// cluster answers tasks/get, tasks/list, tasks/result and tasks/cancel for a
// task another node runs.
//
// One hash per task: `status` (what the put script compares) and `record`
// (the task_record as JSON); it expires at created_at + ttl (PEXPIREAT, so
// that every node agrees on the moment). Beside it, a sorted set per owner
// holds the owner's task ids scored by a sequence taken at creation: the
// order of tasks/list. A member whose task has expired is pruned when a
// listing or a creation meets it; the set itself expires with the
// longest-lived task it holds.
//
//   {"id": "9b1f...", "status": "working", "createdAt": 1767225600000,
//    "lastUpdatedAt": 1767225600000, "ttl": 3600000, "pollInterval": 1000,
//    "owner": "session:3f9c...", "version": "2025-11-25", "node": "a1b2c3d4",
//    "inputRequests": {}}
//
// Every write is a Lua script, so that what it checks and what it writes
// are one step: a put never brings back a task that has expired or been
// removed, and never moves a finished task (completed, failed, cancelled)
// to another status: a task cancelled from one node stays cancelled when
// the node that ran it writes its result a moment later.

#include "redis_parts.hpp"
#include "../protocol/finite_json.hpp"

#include <mcp/protocol/wire.hpp>

#include <mcp/error.hpp>

#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace mcp::detail::redis {

namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

// KEYS: the task, the owner's index, the sequence.
// ARGV: id, status, record, expiry (ms since the epoch, or ''), the prefix
// of task keys, how many of the index's oldest members to check.
// Returns the task's sequence; an error reply when the id is taken.
const script create_script(R"lua(
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.error_reply('EXISTS a task with this id exists') end
local seq = redis.call('INCR', KEYS[3])
redis.call('HSET', KEYS[1], 'status', ARGV[2], 'record', ARGV[3])
if ARGV[4] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[4]) end
for _, old in ipairs(redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[6]) - 1)) do
  if redis.call('EXISTS', ARGV[5] .. old) == 0 then redis.call('ZREM', KEYS[2], old) end
end
local fresh = redis.call('EXISTS', KEYS[2]) == 0
redis.call('ZADD', KEYS[2], seq, ARGV[1])
if ARGV[4] == '' then
  redis.call('PERSIST', KEYS[2])
elseif fresh then
  redis.call('PEXPIREAT', KEYS[2], ARGV[4])
else
  redis.call('PEXPIREAT', KEYS[2], ARGV[4], 'GT')
end
return seq
)lua");

// KEYS: the task. ARGV: status, record. A task gone stays gone; a finished
// one stays as it finished. Returns 1 when written, 0 when not.
const script put_script(R"lua(
local now = redis.call('HGET', KEYS[1], 'status')
if not now then return 0 end
if now == 'completed' or now == 'failed' or now == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'record', ARGV[2])
return 1
)lua");

// KEYS: the owner's index. ARGV: the first sequence (inclusive), the most
// records returned, the most members read, the prefix of task keys.
// Returns {records, the next page's first sequence or nil}. Members whose
// task is gone are removed as they are met; when the budget is spent first
// the page is short and the cursor goes on after the last member read.
const script list_script(R"lua(
local limit = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local from = ARGV[1]
local records = {}
while budget > 0 do
  local batch = redis.call('ZRANGEBYSCORE', KEYS[1], from, '+inf', 'WITHSCORES', 'LIMIT', 0, math.min(budget, 64))
  if #batch == 0 then return {records, false} end
  for i = 1, #batch, 2 do
    local id, seq = batch[i], batch[i + 1]
    local record = redis.call('HGET', ARGV[4] .. id, 'record')
    if not record then
      redis.call('ZREM', KEYS[1], id)
    elseif #records == limit then
      return {records, seq}
    else
      records[#records + 1] = record
    end
    budget = budget - 1
    from = '(' .. seq
  end
end
return {records, tostring(tonumber(string.sub(from, 2)) + 1)}
)lua");

// Of the owner's index, how many of the oldest members a creation checks.
constexpr int pruned_on_create = 16;
// The most members of the index one listing reads (besides the page).
constexpr std::size_t list_budget = 512;

std::int64_t epoch_ms(system_clock::time_point t) {
  return std::chrono::duration_cast<milliseconds>(t.time_since_epoch()).count();
}
system_clock::time_point from_epoch_ms(std::int64_t ms) { return system_clock::time_point(milliseconds(ms)); }

// A record as the store keeps it: times in milliseconds since the epoch.
struct stored_task {
  std::string id;
  task_status status = task_status::working;
  std::optional<std::string> status_message;
  std::int64_t created_at = 0;
  std::int64_t last_updated_at = 0;
  std::optional<std::int64_t> ttl;
  std::optional<std::int64_t> poll_interval;
  std::string owner;
  std::string version;
  std::string node;
  json::object input_requests;
  std::optional<json::object> result;
  std::optional<json::object> error;
};
BOOST_DESCRIBE_STRUCT(stored_task, (),
                      (id, status, status_message, created_at, last_updated_at, ttl, poll_interval, owner, version,
                       node, input_requests, result, error))
[[maybe_unused]] auto mcp_fields(type_t<stored_task>) {
  return std::tuple{field(&stored_task::status_message).key("statusMessage"),
                    field(&stored_task::created_at).key("createdAt"),
                    field(&stored_task::last_updated_at).key("lastUpdatedAt"),
                    field(&stored_task::poll_interval).key("pollInterval"),
                    field(&stored_task::node).omit_if_default(),
                    field(&stored_task::input_requests).key("inputRequests").not_required()};
}

std::optional<std::int64_t> count_of(const std::optional<milliseconds>& ms) {
  return ms ? std::optional(ms->count()) : std::nullopt;
}

std::optional<milliseconds> milliseconds_of(const std::optional<std::int64_t>& count) {
  return count ? std::optional(milliseconds(*count)) : std::nullopt;
}

std::string to_text(const task_record& r) {
  const stored_task stored{r.id,
                           r.status,
                           r.status_message,
                           epoch_ms(r.created_at),
                           epoch_ms(r.last_updated_at),
                           count_of(r.ttl),
                           count_of(r.poll_interval),
                           r.owner,
                           r.version,
                           r.node,
                           r.input_requests,
                           r.result,
                           r.error};
  return json::serialize(to_json_value(stored));
}

// A record this or another node wrote; one it cannot read is an error, not
// a missing task.
task_record from_text(const std::string& text) {
  try {
    auto r = from_json<stored_task>(detail::parse_stored_json(text));
    return task_record{std::move(r.id),
                       r.status,
                       std::move(r.status_message),
                       from_epoch_ms(r.created_at),
                       from_epoch_ms(r.last_updated_at),
                       milliseconds_of(r.ttl),
                       milliseconds_of(r.poll_interval),
                       std::move(r.owner),
                       std::move(r.version),
                       std::move(r.input_requests),
                       std::move(r.result),
                       std::move(r.error),
                       std::move(r.node)};
  } catch (const std::exception& e) {
    throw std::runtime_error("redis task store: an unreadable task record: " + std::string(e.what()));
  }
}

// A cursor is a sequence we handed out: digits only.
std::string checked_cursor(const std::string& cursor) {
  if (cursor.empty()) return "0";
  std::uint64_t seq = 0;
  const auto [end, ec] = std::from_chars(cursor.data(), cursor.data() + cursor.size(), seq);
  if (ec != std::errc() || end != cursor.data() + cursor.size() || cursor.size() > 18)
    throw mcp::invalid_argument("invalid cursor");
  return cursor;
}

class redis_task_store final : public task_store {
 public:
  redis_task_store(std::shared_ptr<connection> commands, key_names keys)
      : commands_(std::move(commands)), keys_(std::move(keys)) {}

  asio::awaitable<void> create(task_record record) override {
    std::vector<std::string> keys{keys_.task(record.id), keys_.task_index(record.owner), keys_.task_sequence()};
    const auto expiry = record.ttl ? std::to_string(epoch_ms(record.expires_at())) : std::string();
    std::vector<std::string> args{record.id,        std::string(to_string(record.status)), to_text(record), expiry,
                                  keys_.task(""), std::to_string(pruned_on_create)};
    // Answered once Redis has run it: from then on every node finds the task.
    const auto created = co_await commands_->eval(create_script, std::move(keys), std::move(args));
    if (created.is_error_code("EXISTS")) throw mcp::invalid_argument("a task with this id exists");
    created.as_integer();  // throws error_reply on any other error reply
  }

  asio::awaitable<void> put(task_record record) override {
    std::vector<std::string> keys{keys_.task(record.id)};
    std::vector<std::string> args{std::string(to_string(record.status)), to_text(record)};
    const auto written = co_await commands_->eval(put_script, std::move(keys), std::move(args));
    written.as_integer();  // throws error_reply on an error reply
  }

  asio::awaitable<std::optional<task_record>> find(std::string id) override {
    const auto key = keys_.task(id);
    const auto text = co_await commands_->command("HGET", key, "record");
    const auto found = text.as_optional_string();
    if (!found) co_return std::nullopt;
    auto record = from_text(*found);
    // (Redis expires the key on its own clock; this one may be a little ahead.)
    if (record.expires_at() <= system_clock::now()) co_return std::nullopt;
    co_return record;
  }

  asio::awaitable<task_record_page> list(std::string owner, std::string cursor, std::size_t limit) override {
    std::vector<std::string> keys{keys_.task_index(owner)};
    std::vector<std::string> args{checked_cursor(cursor), std::to_string(limit), std::to_string(limit + list_budget),
                                  keys_.task("")};
    const auto listed = co_await commands_->eval(list_script, std::move(keys), std::move(args));
    task_record_page page;
    const auto now = system_clock::now();
    for (const auto& text : listed.at(0).as_array()) {
      auto record = from_text(text.as_string());
      if (record.expires_at() > now) page.tasks.push_back(std::move(record));
    }
    page.next_cursor = listed.at(1).as_optional_string();
    co_return page;
  }

 private:
  std::shared_ptr<connection> commands_;
  key_names keys_;
};

}  // namespace

std::shared_ptr<task_store> make_task_store(std::shared_ptr<connection> commands, key_names keys) {
  return std::make_shared<redis_task_store>(std::move(commands), std::move(keys));
}

}  // namespace mcp::detail::redis
