#pragma once
// Where the HTTP server keeps the events of its SSE streams, so that a client
// whose connection dropped can resume a stream with `Last-Event-ID` and miss
// nothing (spec: basic/transports, "Resumability and Redelivery").
//
// The default keeps a bounded window of recent events in this process; an
// implementation backed by a shared store lets another process replay them.

#include <mcp/export.hpp>
#include <mcp/server/store_error.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

namespace asio = boost::asio;

/// One SSE event of a stream: its position and its data (a JSON-RPC message).
struct MCP_API stored_event {
  std::uint64_t seq = 0;  ///< Its place in its stream, from 1 (part of its SSE `id`).
  std::string data;       ///< The JSON-RPC message, as the SSE `data` carried it.
};

/// What a store keeps of a stream besides its events, so that a server that
/// did not run the stream knows how to go on when its client resumes it
/// there (several servers sharing one store, docs/scale-out.md).
struct MCP_API stream_record {
  /// The requests the stream answers (ids as JSON text); empty for a GET stream.
  std::vector<std::string> owed;
  /// Its last event is recorded: nothing more will come.
  bool ended = false;
};

/// Keeps SSE events per session and stream. Streams are named by ids the
/// server picks; `seq` counts the events of one stream from 1.
///
/// @par Thread safety
/// Called from every thread that serves HTTP; implementations synchronise.
class MCP_API event_store {
 public:
  virtual ~event_store() = default;

  /// Records an event. Called on the path of every streamed message, so it
  /// must not block: queue the write if it goes to another process (appends
  /// of one stream must stay in order). A store shared between servers drops
  /// an event whose seq is not above the last one its stream recorded, so
  /// that no event is recorded twice.
  virtual void append(std::string_view session_id, std::string_view stream_id, std::uint64_t seq,
                      std::string_view data) = 0;

  /// The events of a stream after `after_seq`, in order; empty when there are
  /// none (or none are kept any more).
  virtual asio::awaitable<std::vector<stored_event>> replay(std::string session_id,
                                                            std::string stream_id,
                                                            std::uint64_t after_seq) = 0;

  /// Drops every event of a session that has ended.
  virtual void forget(std::string_view session_id) = 0;

  // Stream records. A store that only one server uses may keep none (the
  // defaults): that server knows its own streams. A store shared between
  // servers keeps them, ordered with the appends, as long as the events.

  /// A stream starts: its events follow, and it answers `owed`.
  virtual void open_stream(std::string_view session_id, std::string_view stream_id,
                           std::span<const std::string> owed) {
    (void)session_id, (void)stream_id, (void)owed;
  }
  /// A stream has ended: its last event is appended already.
  virtual void end_stream(std::string_view session_id, std::string_view stream_id) {
    (void)session_id, (void)stream_id;
  }
  /// The record of a stream; nullopt when none is kept.
  virtual asio::awaitable<std::optional<stream_record>> find_stream(std::string session_id,
                                                                    std::string stream_id) {
    (void)session_id, (void)stream_id;
    co_return std::nullopt;
  }
};

/// Bounds of make_memory_event_store(): past either, the oldest events of
/// the session are dropped.
struct MCP_API memory_event_store_options {
  /// Per session, the newest events kept (older ones cannot be replayed).
  std::size_t max_events_per_session = 1024;
  /// Per session, the bytes of event data kept.
  std::size_t max_bytes_per_session = 8 * 1024 * 1024;
};

/// An event store in this process's memory, bounded per session.
MCP_API std::shared_ptr<event_store> make_memory_event_store(memory_event_store_options options = {});

}  // namespace mcp
