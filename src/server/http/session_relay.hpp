#pragma once
// What the copies of one session on the servers of a cluster tell each other,
// over the message bus channel of the session (docs/scale-out.md). Any
// server may hold a copy: the one that opened the session, and any other
// that a load balancer sent one of its requests to. Each copy listens on
// the channel while it lives.
//
// - event: an SSE event of a stream, published by the server that writes the
//   stream, for a copy whose response carries it since the client resumed
//   it there;
// - stream_ended: that stream has ended;
// - to_get_stream: a message for the session's GET stream, from a server that
//   does not hold it;
// - took_get_stream: a server opened a GET stream: the others end theirs;
// - deliver: the client's answers, cancellations and progress, for the copy
//   whose handler or request they concern;
// - session_ended: the session was deleted or expired: every copy ends.
//
// A message is one line of fields, then its payload:
// `<kind> <server> <stream> <seq>\n<payload>`; it never needs a JSON parse
// to be routed, so a server skips its own messages and the events of
// streams it does not carry at the cost of a few comparisons.

#include <mcp/server/message_bus.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace mcp::detail {

struct relay_message {
  enum class kind : char {
    event = 'e',
    stream_ended = 'x',
    to_get_stream = 'g',
    took_get_stream = 't',
    deliver = 'd',
    session_ended = 'q',
  };
  kind what = kind::event;
  std::string_view from;    // the server that published it
  std::string_view stream;  // event, stream_ended, took_get_stream
  std::uint64_t seq = 0;    // event
  std::string_view payload;  // event, to_get_stream, deliver: a JSON-RPC message
};

/// The message `text` holds; nullopt when it is none of ours.
std::optional<relay_message> parse_relay_message(std::string_view text);

/// The bus channel of a session.
std::string relay_channel(std::string_view session_id);

/// Publishes one session's messages, named as coming from one server.
class session_relay {
 public:
  session_relay(std::shared_ptr<message_bus> bus, std::string_view session_id, std::string server)
      : bus_(std::move(bus)), channel_(relay_channel(session_id)), server_(std::move(server)) {}

  /// The server this relay speaks for: its messages come back to it too.
  const std::string& server() const noexcept { return server_; }

  void event(std::string_view stream, std::uint64_t seq, std::string_view data) const;
  void stream_ended(std::string_view stream) const;
  void to_get_stream(std::string_view frame) const;
  void took_get_stream(std::string_view stream) const;
  void deliver(std::string_view frame) const;
  void session_ended() const;

 private:
  void publish(relay_message::kind what, std::string_view stream, std::uint64_t seq,
               std::string_view payload) const;

  std::shared_ptr<message_bus> bus_;
  std::string channel_;
  std::string server_;
};

}  // namespace mcp::detail
