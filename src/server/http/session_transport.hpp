#pragma once
// The streams one MCP session's replies go to over HTTP. POST bodies go
// straight to the session's engine (http_session.hpp); the engine sees this
// class as a message transport that writes at once, routing each outgoing
// frame to the stream that asked for it (a POST's response) or to the
// session's standalone stream (the GET stream; for the legacy HTTP+SSE
// transport, the one stream that carries everything). Nothing runs for an
// idle session.
//
// A stream outlives the HTTP connection that carries it. Once it is an SSE
// stream, every event is recorded in the event store; when the connection
// drops (or a handler lets it go), events go on into the store, and a GET
// with `Last-Event-ID` replays them and attaches a new connection.
//
// The engine writes on the session's strand; the connections that read the
// streams open, find, attach and detach them on theirs. The tables are
// behind one mutex (held briefly; taken before a stream's own).
//
// In a cluster (a message bus shared with other servers, session_relay.hpp)
// the session has a copy on each server that serves it. A stream is written
// by the server that made it (its id starts with that server's node), which
// relays every event it records; a copy whose response carries the stream
// since the client resumed it there pushes the relayed events. Messages for
// the GET stream go to the server that holds it.

#include "message_stream.hpp"
#include "session_relay.hpp"

#include <mcp/protocol/versions.hpp>
#include <mcp/server/event_store.hpp>
#include <mcp/transport/transport.hpp>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mcp::detail {

class http_session_transport final : public message_transport {
 public:
  http_session_transport(asio::any_io_executor ex, std::string id, transport_metadata metadata,
                         std::shared_ptr<event_store> events);

  /// In a cluster: the relay to the session's other copies, and the node
  /// that names this server's streams (their ids start `<node>-`). Set
  /// before the session is shared.
  void set_relay(std::shared_ptr<const session_relay> relay, std::string_view node);
  const session_relay* relay() const noexcept { return relay_.get(); }

  const std::string& id() const noexcept { return id_; }
  bool closed() const noexcept { return closed_; }

  /// The version the session negotiated: it decides whether SSE streams are
  /// primed for polling (2025-11-25 on).
  void set_version(protocol_version version) noexcept { version_ = version; }
  bool primes_streams() const noexcept;

  /// A stream's reader that falls more than `bytes` behind is cut off
  /// (message_stream::limit_backlog): session_options::max_queued_bytes.
  /// Set before the session is shared.
  void limit_backlog(std::size_t bytes) noexcept { backlog_bytes_ = bytes; }

  /// Legacy HTTP+SSE: every frame goes to the standalone stream, without
  /// event ids. Set before the session is shared.
  void set_legacy() noexcept { legacy_ = true; }

  // Each stream opened or attached is read on `reader`, the strand of the
  // response that reads it.

  /// The stream that will carry the answers to `request_ids` (JSON texts).
  std::shared_ptr<message_stream> open_stream(std::span<const std::string> request_ids, bool json_only,
                                              asio::any_io_executor reader);

  /// A POST of one request, handed to the engine on the session's strand,
  /// needs no stream in the session's tables when the answer is all the
  /// engine writes for it before the handing over returns, as for a tool
  /// that finishes at once. Between expect_direct() and take_direct() (both
  /// on the session's strand, with nothing awaited between them) that answer
  /// is kept in `slot`, for a JSON response or take_answer_event(). Anything
  /// else that concerns the request first (a message related to it, its
  /// abandonment or release) opens its stream as open_stream() would have,
  /// and it and all that follows go there.
  struct direct_slot {
    std::string request_id;
    bool json_only = false;
    asio::any_io_executor reader;
    std::optional<std::string> answer;
    frame_context::refusal refused = frame_context::refusal::none;
    std::shared_ptr<message_stream> stream;  // once opened
  };
  void expect_direct(direct_slot& slot);
  /// Ends the expectation. No answer kept: the request's stream, opened now
  /// if nothing opened it before; an answer kept: null.
  std::shared_ptr<message_stream> take_direct();
  /// Ends the expectation of `slot`, if it is still the one expected,
  /// keeping nothing: for a handing over that threw.
  void forget_direct(const direct_slot& slot) noexcept;
  /// The answer `slot` kept, as the one event of an SSE response of its own.
  /// Nothing else can reach that stream, so it needs no message_stream: its
  /// id is made here, and when `resumable` (not for a legacy session) the
  /// event is recorded as seq 1 and the stream ended, as make_resumable
  /// would record a stream that carried the answer.
  struct answered_event {
    std::string stream_id;
    bool resumable = false;
    std::string data;
  };
  answered_event take_answer_event(direct_slot& slot, bool resumable);
  /// Makes a POST's stream an SSE stream: its events get ids and are
  /// recorded, with the requests it answers (`owed`, as given to open_stream).
  void make_resumable(message_stream& stream, std::span<const std::string> owed);
  /// A new standalone stream for a GET; null while another is attached.
  std::shared_ptr<message_stream> open_standalone(asio::any_io_executor reader);
  /// The live stream an event id names, when it is still in this process.
  std::shared_ptr<message_stream> find_stream(const std::string& stream_id) const;
  /// A stream that owes nothing more, for a GET that resumed a finished
  /// stream: it stays open (clients would otherwise reconnect again and
  /// again) until the client or the session ends it.
  std::shared_ptr<message_stream> open_quiet_stream(const std::string& stream_id, asio::any_io_executor reader);
  /// A stream that has ended here, for a GET that replays what it recorded.
  std::shared_ptr<message_stream> open_ended_stream(const std::string& stream_id, asio::any_io_executor reader);
  /// A stream another server writes, for a GET that resumed it here: it
  /// carries the events relayed to it until that server ends it.
  std::shared_ptr<message_stream> open_relayed_stream(const std::string& stream_id, asio::any_io_executor reader);

  // What the session's other copies relayed (session_relay.hpp).

  /// An event of a stream another server writes.
  void relayed_event(std::string_view stream_id, std::uint64_t seq, std::string_view data);
  /// That stream has ended.
  void relayed_stream_ended(std::string_view stream_id);
  /// A message for the GET stream, when it is held here.
  void relayed_to_get_stream(std::string_view frame);
  /// Another server holds the GET stream from now on: this one's ends.
  void get_stream_taken_elsewhere(std::string_view stream_id);
  /// Messages may have been lost on the way here: the responses carrying
  /// relayed streams end, and their clients resume them from the store.
  void release_relayed_streams();
  /// The GET stream `stream_id`, whose server died after it recorded events
  /// up to `last_seq`, is held here from now on, on the same id; null while
  /// another GET stream is read here.
  std::shared_ptr<message_stream> take_over_get_stream(const std::string& stream_id, std::uint64_t last_seq,
                                                       asio::any_io_executor reader);
  /// A resumed stream gets a response again; false while another has it.
  bool attach(message_stream& stream, asio::any_io_executor reader);
  /// The response carrying `stream` went away; what follows is kept in the store.
  void detach(message_stream& stream);
  /// How many streams have a response attached (bounded per session).
  std::size_t attached_streams() const;

  asio::any_io_executor get_executor() override { return executor_; }
  /// The session's strand, where its engine writes.
  const asio::any_io_executor& strand() const noexcept { return executor_; }
  /// Nothing reads a session: its frames reach the engine through accept().
  asio::awaitable<std::optional<inbound_frame>> read_frame() override;
  asio::awaitable<void> write_frame(std::string frame) override;
  asio::awaitable<void> write_routed(std::string frame, frame_context context) override;
  bool writes_at_once() const override { return true; }
  void write_now(std::string frame, frame_context context) override;
  asio::awaitable<void> close() override;
  bool reaches_client() const override;
  /// Ends every stream now (responses waiting on them end); the engine
  /// still has to finish.
  void end_streams();
  void abandon(const std::string& request_id) override;
  void close_stream(const std::string& request_id) override;
  transport_metadata metadata() const override { return *metadata_; }
  std::shared_ptr<const transport_metadata> shared_metadata() const override { return metadata_; }

 private:
  // With the mutex held.
  // Whether `frame` was the direct POST's answer, kept in its slot; a frame
  // that concerns its request otherwise opens the request's stream first.
  bool keep_direct(std::string& frame, const frame_context& context);
  // The direct POST's request, if it is `request_id`, gets its stream now,
  // unless it has one or its answer came.
  void open_direct_stream(std::string_view request_id);
  // A new stream takes its place in the tables (ended at once in a closed session).
  void enter(const std::shared_ptr<message_stream>& stream, std::span<const std::string> request_ids);
  // `answers`: the requests the message answers (the stream ends with the last one owed).
  void push(message_stream& stream, std::string frame, std::span<const std::string> answers = {});
  void to_standalone(std::string frame);
  void finish(message_stream& stream);
  // Whether a response reads the GET stream now.
  bool get_stream_read() const;
  // `stream` is the GET stream from now on; the one before ends.
  void become_get_stream(std::shared_ptr<message_stream> stream);

  // A resumed stream held open for its reader (ended at once when the
  // session is). Takes the mutex.
  std::shared_ptr<message_stream> hold(std::shared_ptr<message_stream> stream);
  // A stream's event goes to the store, and to the other copies in a cluster.
  void record(const std::string& stream_id, std::uint64_t seq, const std::string& data);
  // In a cluster (stream records serve the other servers only): a resumable
  // stream has ended, and the store and the other copies learn it.
  void record_end(const std::string& stream_id);
  // A new stream's id: random, after this server's node in a cluster.
  std::string new_stream_id() const;
  // A stream of this session (its backlog limited).
  template <class... Args>
  std::shared_ptr<message_stream> make_stream(Args&&... args) const {
    auto stream = std::make_shared<message_stream>(std::forward<Args>(args)...);
    stream->limit_backlog(backlog_bytes_);
    return stream;
  }

  asio::any_io_executor executor_;
  std::string id_;
  std::shared_ptr<const transport_metadata> metadata_;
  std::shared_ptr<event_store> events_;
  std::shared_ptr<const session_relay> relay_;  // null outside a cluster
  std::string stream_prefix_;                    // "<node>-" in a cluster
  std::atomic<protocol_version> version_ = default_http_version;
  bool legacy_ = false;
  std::size_t backlog_bytes_ = SIZE_MAX;
  mutable std::mutex mutex_;
  // (Trees, not flat hash maps: a flat table keeps its slots when emptied,
  // about 1.5 KB per idle session for these two.)
  std::map<std::string, std::shared_ptr<message_stream>, std::less<>> by_request_;  // streams owing answers
  std::map<std::string, std::shared_ptr<message_stream>, std::less<>> by_id_;       // every live stream
  std::shared_ptr<message_stream> standalone_;
  direct_slot* direct_ = nullptr;  // a POST's, between expect_direct and take_direct
  std::atomic<bool> closed_ = false;
};

}  // namespace mcp::detail
