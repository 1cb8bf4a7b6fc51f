#pragma once
// One MCP session over HTTP: the transport that routes its frames to HTTP
// streams (session_transport.hpp), and the engine that serves it. The
// transport knows nothing of the engine; this owns both, in the order their
// lives need.

#include "../engine.hpp"
#include "session_transport.hpp"

#include <boost/asio/cancellation_signal.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>

namespace mcp::detail {

class http_session {
 public:
  http_session(asio::any_io_executor ex, std::string id, transport_metadata metadata,
               std::shared_ptr<event_store> events)
      : transport_(std::move(ex), std::move(id), std::move(metadata), std::move(events)) {}
  http_session(const http_session&) = delete;
  http_session& operator=(const http_session&) = delete;

  /// Starts the engine: once, after the transport is set up (legacy, version).
  void start(server_behaviour& behaviour, session_options options) {
    // Over HTTP the engine's writes never wait (they go to streams in
    // memory): the bound on what waits for a slow reader is each stream's.
    transport_.limit_backlog(options.max_queued_bytes);
    engine_ = std::make_unique<server_engine>(behaviour, transport_, std::move(options));
    engine_->start();
  }

  http_session_transport& transport() noexcept { return transport_; }
  /// The session's strand: its engine runs there, and only there.
  const asio::any_io_executor& executor() const noexcept { return transport_.strand(); }
  /// Serves the session's requests: POST bodies go to its accept().
  server_engine& engine() noexcept { return *engine_; }

  /// In a cluster: the session's channel on the message bus, listened to
  /// while this copy lives (cluster.cpp).
  std::unique_ptr<message_bus::subscription> relay_subscription;

  /// With a shared session store: the version of the session's shared
  /// state this copy has read in (session_record::state_version).
  std::atomic<std::uint64_t> state_version = 0;

  /// While its engine finishes (on the session's strand, like this): cuts
  /// the finish's drain short when the session is ended meanwhile. Null
  /// until then.
  std::shared_ptr<asio::cancellation_signal> finishing;

 private:
  http_session_transport transport_;
  // Last: destroyed first, while the streams it writes to still exist.
  std::unique_ptr<server_engine> engine_;
};

}  // namespace mcp::detail
