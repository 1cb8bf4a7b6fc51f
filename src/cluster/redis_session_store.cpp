// Session records in Redis: one string key per session holding the record
// as JSON, which expires unless touched (SET/GETEX with PX).
//
//   {"id": "3f9c...", "owner": "",
//    "negotiated": {"protocolVersion": "2025-11-25",
//                   "clientInfo": {"name": "client", "version": "1.0"},
//                   "capabilities": {"sampling": {}}}}

#include "redis_parts.hpp"

#include <mcp/protocol/versions.hpp>
#include <mcp/protocol/wire.hpp>

#include <boost/json/parse.hpp>
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
    const auto value = json::parse(text);
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
    const auto key = keys_.session(id);
    const auto found = co_await commands_->command("GETEX", key, "PX", milliseconds(ttl));
    const auto text = found.as_optional_string();
    if (!text) co_return std::nullopt;
    co_return record_from_json(*text);
  }

  asio::awaitable<bool> alive(std::string id) override {
    const auto key = keys_.session(id);
    const auto exists = co_await commands_->command("EXISTS", key);
    co_return exists.as_integer() == 1;
  }

  asio::awaitable<void> remove(std::string id) override {
    const auto key = keys_.session(id);
    const auto removed = co_await commands_->command("DEL", key);
    removed.as_integer();  // throws error_reply on an error reply
  }

 private:
  std::shared_ptr<connection> commands_;
  key_names keys_;
};

}  // namespace

std::shared_ptr<session_store> make_session_store(std::shared_ptr<connection> commands, key_names keys) {
  return std::make_shared<redis_session_store>(std::move(commands), std::move(keys));
}

}  // namespace mcp::detail::redis
