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

#include "../../detail/lazy_event.hpp"

#include <mcp/protocol/versions.hpp>
#include <mcp/server/event_store.hpp>
#include <mcp/transport/transport.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/container/small_vector.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace mcp::detail {

/// An event on its way to an HTTP response.
struct queued_event {
  std::uint64_t seq = 0;  // 0: not an SSE event (a JSON response, a legacy stream)
  std::string data;
};

/// A logical stream of messages for one HTTP response at a time.
class message_stream {
 public:
  message_stream(asio::any_io_executor ex, std::string id) : wake_(std::move(ex)), id_(std::move(id)) {}

  const std::string& id() const noexcept { return id_; }

  /// Event ids are `<stream id>_<seq>`; seq 0 is the priming event.
  std::string event_id(std::uint64_t seq) const { return id_ + "_" + std::to_string(seq); }

  /// What a response waits on: cancelled when something changes.
  asio::steady_timer& wake() { return wake_.timer(); }
  void notify() { wake_.notify(); }
  /// The connection of the attached response ended.
  void client_went_away() {
    client_gone = true;
    notify();
  }

  /// The stream owes an answer to the request with this id (JSON text).
  void owe(const std::string& request_id) {
    if (std::ranges::find(awaiting, request_id) == awaiting.end()) awaiting.push_back(request_id);
  }
  /// The request got its answer (or will get none).
  void settle(std::string_view request_id) {
    if (const auto it = std::ranges::find(awaiting, request_id); it != awaiting.end()) awaiting.erase(it);
  }

  // Not yet written to the attached response; taken whole by the writer.
  // (A vector: a deque allocates even while empty, and there is one per POST.)
  std::vector<queued_event> pending;
  // Ids of requests this stream still owes an answer: mostly one, kept in place.
  boost::container::small_vector<std::string, 1> awaiting;
  std::uint64_t last_seq = 0;
  bool done = false;            // the last message has been queued
  bool json_only = false;       // a JSON response: messages that merely serve a request go elsewhere
  bool resumable = false;       // an SSE stream with event ids, recorded in the event store
  bool attached = false;        // an HTTP response is reading it
  bool release_requested = false;  // close the connection, keep the stream (SSE polling)
  bool client_gone = false;        // the connection of the attached response ended
  frame_context::refusal refused = frame_context::refusal::none;  // how its answer refuses its request

 private:
  lazy_event wake_;
  std::string id_;
};

class http_session_transport final : public message_transport {
 public:
  http_session_transport(asio::any_io_executor ex, std::string id, transport_metadata metadata,
                         std::shared_ptr<event_store> events);

  const std::string& id() const noexcept { return id_; }
  bool closed() const noexcept { return closed_; }

  /// The version the session negotiated: it decides whether SSE streams are
  /// primed for polling (2025-11-25 on).
  void set_version(protocol_version version) noexcept { version_ = version; }
  bool primes_streams() const noexcept;

  /// Legacy HTTP+SSE: every frame goes to the standalone stream, without event ids.
  void set_legacy() noexcept { legacy_ = true; }

  /// The stream that will carry the answers to `request_ids` (JSON texts).
  std::shared_ptr<message_stream> open_stream(std::span<const std::string> request_ids, bool json_only);
  /// Makes a POST's stream an SSE stream: its events get ids and are recorded.
  void make_resumable(message_stream& stream);
  /// A new standalone stream for a GET; null while another is attached.
  std::shared_ptr<message_stream> open_standalone();
  /// The live stream an event id names, when it is still in this process.
  std::shared_ptr<message_stream> find_stream(const std::string& stream_id) const;
  /// A stream that owes nothing more, for a GET that resumed a finished
  /// stream: it stays open (clients would otherwise reconnect again and
  /// again) until the client or the session ends it.
  std::shared_ptr<message_stream> open_quiet_stream(const std::string& stream_id);
  /// A resumed stream gets a response again; false while another has it.
  bool attach(message_stream& stream);
  /// The response carrying `stream` went away; what follows is kept in the store.
  void detach(message_stream& stream);
  /// How many streams have a response attached (bounded per session).
  std::size_t attached_streams() const;

  asio::any_io_executor get_executor() override { return executor_; }
  /// Nothing reads a session: its frames reach the engine through accept().
  asio::awaitable<std::optional<inbound_frame>> read_frame() override;
  asio::awaitable<void> write_frame(std::string frame) override;
  asio::awaitable<void> write_routed(std::string frame, frame_context context) override;
  bool writes_at_once() const override { return true; }
  void write_now(std::string frame, frame_context context) override;
  asio::awaitable<void> close() override;
  /// Ends every stream now (responses waiting on them end); the engine
  /// still has to finish.
  void end_streams();
  void abandon(const std::string& request_id) override;
  void close_stream(const std::string& request_id) override;
  transport_metadata metadata() const override { return *metadata_; }
  std::shared_ptr<const transport_metadata> shared_metadata() const override { return metadata_; }

 private:
  void push(message_stream& stream, std::string frame);
  void to_standalone(std::string frame);
  void finish(message_stream& stream);

  asio::any_io_executor executor_;
  std::string id_;
  std::shared_ptr<const transport_metadata> metadata_;
  std::shared_ptr<event_store> events_;
  protocol_version version_ = default_http_version;
  bool legacy_ = false;
  // (Trees, not flat hash maps: a flat table keeps its slots when emptied,
  // about 1.5 KB per idle session for these two.)
  std::map<std::string, std::shared_ptr<message_stream>, std::less<>> by_request_;  // streams owing answers
  std::map<std::string, std::shared_ptr<message_stream>, std::less<>> by_id_;       // every live stream
  std::shared_ptr<message_stream> standalone_;
  bool closed_ = false;
};

}  // namespace mcp::detail
