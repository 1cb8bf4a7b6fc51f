// Session records in Redis: one string key per session holding the record
// as JSON, which expires unless touched (SET, and a script that pushes the
// expiry of both keys back and reads them).
//
//   {"id": "3f9c...", "owner": "",
//    "negotiated": {"protocolVersion": "2025-11-25",
//                   "clientInfo": {"name": "client", "version": "1.0"},
//                   "capabilities": {"sampling": {}}}}
//
// Beside it, a hash holds the session's shared state (session_record::state):
// a field per key whose value is its JSON text, so that two servers saving
// different keys never undo each other's change, and `~version`, counted up
// by every save.

#include "redis_parts.hpp"
#include "../protocol/finite_json.hpp"

#include <mcp/protocol/versions.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/json/serialize.hpp>

#include <stdexcept>

namespace mcp::detail::redis {

namespace {

json::object to_json(const negotiated_session& n) {
  json::object o;
  o["protocolVersion"] = to_string(n.version);
  o["clientInfo"] = to_json_value(n.client_info);
  o["capabilities"] = n.client_capabilities;
  return o;
}

json::object to_json(const session_record& record) {
  json::object o;
  o["id"] = record.id;
  o["owner"] = record.owner;
  if (record.negotiated) o["negotiated"] = to_json(*record.negotiated);
  return o;
}

negotiated_session negotiated_from_json(const json::object& o) {
  const auto text = from_json<std::string>(o.at("protocolVersion"));
  const auto version = parse_protocol_version(text);
  if (!version) throw std::runtime_error("protocol version '" + text + "' is unknown here");
  return {*version, from_json<implementation>(o.at("clientInfo")), o.at("capabilities").as_object()};
}

// A record this or another server wrote; one it cannot read (a newer server's
// protocol version, say) is an error, not a missing session.
session_record record_from_json(const std::string& text) {
  try {
    const auto value = detail::parse_stored_json(text);
    const auto& o = value.as_object();
    session_record record{from_json<std::string>(o.at("id"))};
    record.owner = from_json<std::string>(o.at("owner"));
    if (const auto* n = o.if_contains("negotiated")) record.negotiated = negotiated_from_json(n->as_object());
    return record;
  } catch (const std::exception& e) {
    throw std::runtime_error("redis session store: an unreadable session record: " + std::string(e.what()));
  }
}

std::int64_t milliseconds(std::chrono::seconds ttl) { return std::chrono::milliseconds(ttl).count(); }

// (Keys of the state are type names and "mcp/logLevel": never this.)
constexpr std::string_view version_field = "~version";

// KEYS: the record, the state. ARGV: the time to live in ms.
// Returns nil, or the record's text and the state's fields and values.
const script touch_script(R"lua(
local record = redis.call('GET', KEYS[1])
if not record then return false end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return {record, redis.call('HGETALL', KEYS[2])}
)lua");

// KEYS: the record, the state. ARGV: the expiry in milliseconds, the state
// version the caller has. Only the version, and the state when it differs:
// the caller serves the session and knows its record.
const script refresh_script(R"lua(
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then return false end
redis.call('PEXPIRE', KEYS[2], ARGV[1])
local version = redis.call('HGET', KEYS[2], '~version') or '0'
if version == ARGV[2] then return {version} end
return {version, redis.call('HGETALL', KEYS[2])}
)lua");

// KEYS: the record, the state. ARGV: fields and their values, in turn.
// The state lives as long as its record; nothing is saved once that is gone.
const script save_state_script(R"lua(
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
redis.call('HSET', KEYS[2], unpack(ARGV))
local version = redis.call('HINCRBY', KEYS[2], '~version', 1)
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return version
)lua");

// The state's fields and values (HGETALL's flat array) into the record.
void read_state(const std::vector<reply>& fields, session_record& record) {
  for (std::size_t i = 0; i + 1 < fields.size(); i += 2) {
    const auto& field = fields[i].as_string();
    const auto& value = fields[i + 1].as_string();
    if (field == version_field) {
      record.state_version = std::stoull(value);
      continue;
    }
    boost::system::error_code ec;
    auto parsed = detail::parse_stored_json(value, ec);
    if (!ec) record.state[field] = std::move(parsed);
  }
}

class redis_session_store final : public session_store {
 public:
  redis_session_store(std::shared_ptr<connection> commands, key_names keys)
      : commands_(std::move(commands)), keys_(std::move(keys)) {}

  asio::awaitable<void> put(session_record record, std::chrono::seconds ttl) override {
    const auto key = keys_.session(record.id);
    const auto text = json::serialize(to_json(record));
    const auto ok = co_await commands_->command("SET", key, text, "PX", milliseconds(ttl));
    ok.as_string();  // throws error_reply on an error reply
  }

  asio::awaitable<std::optional<session_record>> touch(std::string id, std::chrono::seconds ttl) override {
    std::vector<std::string> args;
    args.push_back(std::to_string(milliseconds(ttl)));
    auto keys = record_keys(id);
    const auto found = co_await commands_->eval(touch_script, std::move(keys), std::move(args));
    if (found.is_nil()) co_return std::nullopt;
    const auto& parts = found.as_array();
    auto record = record_from_json(parts.at(0).as_string());
    read_state(parts.at(1).as_array(), record);
    co_return record;
  }

  asio::awaitable<std::optional<session_refresh>> refresh(std::string id, std::chrono::seconds ttl,
                                                          std::uint64_t known_state_version) override {
    std::vector<std::string> args;
    args.reserve(2);
    args.push_back(std::to_string(milliseconds(ttl)));
    args.push_back(std::to_string(known_state_version));
    auto keys = record_keys(id);
    const auto found = co_await commands_->eval(refresh_script, std::move(keys), std::move(args));
    if (found.is_nil()) co_return std::nullopt;
    const auto& parts = found.as_array();
    session_refresh now{std::stoull(parts.at(0).as_string())};
    if (parts.size() > 1) {
      session_record changed;
      read_state(parts.at(1).as_array(), changed);
      now.state = std::move(changed.state);
    }
    co_return now;
  }

  asio::awaitable<bool> alive(std::string id) override {
    const auto key = keys_.session(id);
    const auto exists = co_await commands_->command("EXISTS", key);
    co_return exists.as_integer() == 1;
  }

  asio::awaitable<void> remove(std::string id) override {
    const auto key = keys_.session(id);
    const auto state = keys_.session_state(id);
    const auto removed = co_await commands_->command("DEL", key, state);
    removed.as_integer();  // throws error_reply on an error reply
  }

  asio::awaitable<void> save_state(std::string id, json::object changes) override {
    if (changes.empty()) co_return;
    std::vector<std::string> args;
    for (const auto& [key, value] : changes) {
      args.emplace_back(key);
      args.push_back(json::serialize(value));
    }
    auto keys = record_keys(id);
    const auto saved = co_await commands_->eval(save_state_script, std::move(keys), std::move(args));
    saved.as_integer();  // throws error_reply on an error reply
  }

 private:
  // The KEYS of the scripts: the record, the state. (Built by push_back: a
  // braced list would copy each string once more.)
  std::vector<std::string> record_keys(const std::string& id) const {
    std::vector<std::string> keys;
    keys.reserve(2);
    keys.push_back(keys_.session(id));
    keys.push_back(keys_.session_state(id));
    return keys;
  }

  std::shared_ptr<connection> commands_;
  key_names keys_;
};

}  // namespace

std::shared_ptr<session_store> make_session_store(std::shared_ptr<connection> commands, key_names keys) {
  return std::make_shared<redis_session_store>(std::move(commands), std::move(keys));
}

}  // namespace mcp::detail::redis
