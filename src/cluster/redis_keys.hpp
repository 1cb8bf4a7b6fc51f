#pragma once
// Every key and channel of the Redis stores, in one place. Each begins with
// the prefix (redis_options::prefix), so that unrelated servers can share a
// Redis. Session and stream ids are the server's own (hex), so the colons
// that join the parts cannot be confused with theirs.
//
//   <prefix>session:<session>              string, the session_record as JSON; PX the session's ttl
//   <prefix>session-state:<session>        hash, the session's shared state: one field per key
//                                          (its JSON text), and ~version; PX the session's ttl
//   <prefix>events:<session>:<stream>      stream, one entry per event: id "<seq>-1", field "data"
//   <prefix>stream:<session>:<stream>      hash, the stream record: owed (JSON array of ids), ended ("0"/"1")
//   <prefix>streams:<session>              set of the session's events and stream-record keys (for forget)
//                                          (these three: PX event_ttl from the stream's last write)
//   <prefix>node:<node>                    string, set every heartbeat_interval; PX node_ttl
//   <prefix>task:<task>                    hash, a task: status, record (the task_record as JSON);
//                                          PEXPIREAT created_at + ttl
//   <prefix>tasks:<owner>                  sorted set of the owner's task ids, scored by task-seq;
//                                          PEXPIREAT of its longest-lived task
//   <prefix>task-seq                       integer, the sequence that orders tasks/list
//   <prefix>bus:<channel>                  a pub/sub channel of the message bus

#include <string>
#include <string_view>

namespace mcp::detail::redis {

class key_names {
 public:
  explicit key_names(std::string prefix) : prefix_(std::move(prefix)) {}

  std::string session(std::string_view id) const { return join("session:", id); }
  std::string session_state(std::string_view id) const { return join("session-state:", id); }
  std::string events(std::string_view session, std::string_view stream) const {
    return join("events:", session, ":", stream);
  }
  std::string stream_record(std::string_view session, std::string_view stream) const {
    return join("stream:", session, ":", stream);
  }
  std::string session_streams(std::string_view session) const { return join("streams:", session); }
  std::string node(std::string_view id) const { return join("node:", id); }
  std::string task(std::string_view id) const { return join("task:", id); }
  std::string task_index(std::string_view owner) const { return join("tasks:", owner); }
  std::string task_sequence() const { return join("task-seq"); }
  std::string channel(std::string_view name) const { return join("bus:", name); }

 private:
  template <class... Parts>
  std::string join(const Parts&... parts) const {
    std::string key;
    key.reserve(prefix_.size() + (std::string_view(parts).size() + ...));
    key += prefix_;
    (key.append(std::string_view(parts)), ...);
    return key;
  }

  std::string prefix_;
};

}  // namespace mcp::detail::redis
