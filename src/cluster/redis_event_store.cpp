// SSE events in Redis Streams, one stream key per (session, stream) whose
// entry ids are "<seq>-1", with the stream's record in a hash beside it and
// the session's keys in a set, for forget(). Everything that writes goes
// without waiting, as EVALSHA of a script loaded by every link of the
// connection (config::scripts), so the writes of one stream stay in the
// order they were made, and ahead of the bus messages published after them.

#include "redis_parts.hpp"
#include "../protocol/finite_json.hpp"

#include <mcp/json/convert.hpp>

#include <boost/json/serialize.hpp>

#include <charconv>

namespace mcp::detail::redis {

namespace {

// KEYS: the stream's events, its record, the session's set of keys.
// ARGV: seq, data, the newest events kept, the time to live in ms.
// An event whose seq is not above the stream's newest is dropped: another
// server recorded it already, or a later one. (The newest entry outlives
// trimming, which takes the oldest.)
const script append_script(R"lua(
local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if newest and tonumber(string.match(newest[1], '^%d+')) >= tonumber(ARGV[1]) then return 0 end
redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[3], ARGV[1] .. '-1', 'data', ARGV[2])
redis.call('SADD', KEYS[3], KEYS[1], KEYS[2])
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARGV[4]) end
return 1
)lua");

// KEYS: the stream's record, the session's set of keys.
// ARGV: the owed ids (a JSON array), the time to live in ms.
const script open_script(R"lua(
redis.call('HSET', KEYS[1], 'owed', ARGV[1], 'ended', '0')
redis.call('SADD', KEYS[2], KEYS[1])
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ARGV[2]) end
return 1
)lua");

// KEYS: the stream's record. A record gone (expired, forgotten) stays gone.
const script end_script(R"lua(
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'ended', '1')
return 1
)lua");

// KEYS: the session's set of keys.
const script forget_script(R"lua(
for _, key in ipairs(redis.call('SMEMBERS', KEYS[1])) do redis.call('DEL', key) end
redis.call('DEL', KEYS[1])
return 1
)lua");

// The seq of an entry id "<seq>-1".
std::uint64_t seq_of(const std::string& id) {
  std::uint64_t seq = 0;
  const auto [end, ec] = std::from_chars(id.data(), id.data() + id.size(), seq);
  if (ec != std::errc() || end == id.data() || *end != '-')
    throw std::runtime_error("redis event store: an entry id that is not ours: " + id);
  return seq;
}

// An XRANGE entry: [id, [field, value, ...]].
stored_event event_of(const reply& entry) {
  stored_event event;
  event.seq = seq_of(entry.at(0).as_string());
  const auto& fields = entry.at(1).as_array();
  for (std::size_t i = 0; i + 1 < fields.size(); i += 2)
    if (fields[i].as_string() == "data") event.data = fields[i + 1].as_string();
  return event;
}

class redis_event_store final : public event_store {
 public:
  redis_event_store(std::shared_ptr<connection> commands, key_names keys, const cluster::redis_options& options)
      : commands_(std::move(commands)),
        keys_(std::move(keys)),
        max_events_(std::to_string(options.max_events_per_stream)),
        ttl_(std::to_string(std::chrono::milliseconds(options.event_ttl).count())) {}

  void append(std::string_view session_id, std::string_view stream_id, std::uint64_t seq,
              std::string_view data) override {
    commands_->send_eval(append_script,
                         {keys_.events(session_id, stream_id), keys_.stream_record(session_id, stream_id),
                          keys_.session_streams(session_id)},
                         {std::to_string(seq), std::string(data), max_events_, ttl_});
  }

  asio::awaitable<std::vector<stored_event>> replay(std::string session_id, std::string stream_id,
                                                    std::uint64_t after_seq) override {
    const auto key = keys_.events(session_id, stream_id);
    const auto after = "(" + std::to_string(after_seq) + "-1";  // exclusive
    const auto entries = co_await commands_->command("XRANGE", key, after, "+");
    std::vector<stored_event> events;
    for (const auto& entry : entries.as_array()) events.push_back(event_of(entry));
    co_return events;
  }

  void forget(std::string_view session_id) override {
    commands_->send_eval(forget_script, {keys_.session_streams(session_id)}, {});
  }

  void open_stream(std::string_view session_id, std::string_view stream_id,
                   std::span<const std::string> owed) override {
    const auto owed_json = json::serialize(to_json_value(std::vector<std::string>(owed.begin(), owed.end())));
    commands_->send_eval(open_script, {keys_.stream_record(session_id, stream_id), keys_.session_streams(session_id)},
                         {owed_json, ttl_});
  }

  void end_stream(std::string_view session_id, std::string_view stream_id) override {
    commands_->send_eval(end_script, {keys_.stream_record(session_id, stream_id)}, {});
  }

  asio::awaitable<std::optional<stream_record>> find_stream(std::string session_id, std::string stream_id) override {
    const auto key = keys_.stream_record(session_id, stream_id);
    const auto fields = co_await commands_->command("HMGET", key, "owed", "ended");
    const auto owed = fields.at(0).as_optional_string();
    if (!owed) co_return std::nullopt;
    stream_record record;
    record.owed = from_json<std::vector<std::string>>(detail::parse_stored_json(*owed));
    record.ended = fields.at(1).as_optional_string() == "1";
    co_return record;
  }

 private:
  std::shared_ptr<connection> commands_;
  key_names keys_;
  std::string max_events_;  // as Redis takes them: text
  std::string ttl_;         // ms
};

}  // namespace

std::shared_ptr<event_store> make_event_store(std::shared_ptr<connection> commands, key_names keys,
                                              const cluster::redis_options& options) {
  return std::make_shared<redis_event_store>(std::move(commands), std::move(keys), options);
}

std::vector<std::string> event_store_scripts() {
  return {append_script.source(), open_script.source(), end_script.source(), forget_script.source()};
}

}  // namespace mcp::detail::redis
