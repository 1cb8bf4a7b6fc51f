#pragma once
// Where the HTTP server keeps the events of its SSE streams, so that a client
// whose connection dropped can resume a stream with `Last-Event-ID` and miss
// nothing (spec: basic/transports, "Resumability and Redelivery").
//
// The default keeps a bounded window of recent events in this process; an
// implementation backed by a shared store lets another process replay them.

#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mcp {

namespace asio = boost::asio;

/// One SSE event of a stream: its position and its data (a JSON-RPC message).
struct stored_event {
  std::uint64_t seq = 0;
  std::string data;
};

/// Keeps SSE events per session and stream. Streams are named by ids the
/// server picks; `seq` counts the events of one stream from 1.
///
/// @par Thread safety
/// Called from every thread that serves HTTP; implementations synchronise.
class event_store {
 public:
  virtual ~event_store() = default;

  /// Records an event. Called on the path of every streamed message, so it
  /// must not block: queue the write if it goes to another process (appends
  /// of one stream must stay in order).
  virtual void append(std::string_view session_id, std::string_view stream_id, std::uint64_t seq,
                      std::string_view data) = 0;

  /// The events of a stream after `after_seq`, in order; empty when there are
  /// none (or none are kept any more).
  virtual asio::awaitable<std::vector<stored_event>> replay(std::string session_id,
                                                            std::string stream_id,
                                                            std::uint64_t after_seq) = 0;

  /// Drops every event of a session that has ended.
  virtual void forget(std::string_view session_id) = 0;
};

struct memory_event_store_options {
  /// Per session, the newest events kept (older ones cannot be replayed).
  std::size_t max_events_per_session = 1024;
  /// Per session, the bytes of event data kept.
  std::size_t max_bytes_per_session = 8 * 1024 * 1024;
};

/// An event store in this process's memory, bounded per session.
std::shared_ptr<event_store> make_memory_event_store(memory_event_store_options options = {});

}  // namespace mcp
