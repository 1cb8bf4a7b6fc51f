#pragma once
// A 2026-07-28 subscriptions/listen stream over HTTP once it is open: its
// SSE response, held by this object alone. The POST that opened it is done
// by then (its coroutines, its JSON and its engine are gone); what is left
// is the channel (a connection, or an application's exchange), the
// listener's session (which the behaviour notifies), and the events the
// channel has not taken yet. Nothing runs while it is quiet: a notification
// is written at once, and a coroutine runs only while a slow reader leaves
// bytes behind (under the write deadline), and to close.
//
// It runs on its channel's strand; notifications posted from elsewhere hop
// there.

#include "../../transport/http/server/response_channel.hpp"
#include "../engine.hpp"
#include "http_telemetry.hpp"

#include <mcp/protocol/messages.hpp>

#include <boost/asio/awaitable.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace mcp::detail {

/// The server a held listen stream's channel belongs to.
class listen_stream_owner {
 public:
  /// The channel numbered `connection` has ended.
  virtual void listen_connection_closed(std::uint64_t connection) = 0;

 protected:
  ~listen_stream_owner() = default;
};

class listen_stream final : public connection_link {
 public:
  /// `strand`: the connection's. A reader more than `max_queued_bytes`
  /// behind is cut off (its connection ends; the client may listen again).
  listen_stream(asio::any_io_executor strand, server_behaviour& behaviour, std::size_t max_queued_bytes);

  /// The engine's hand-over (listen_host): the acknowledgement first.
  void open(const request_id& id, std::string acknowledgement, std::shared_ptr<session> listener);

  // The response's side, on the strand.

  /// What is queued, as SSE events: written after the head by the POST,
  /// which then hands the channel over with adopt(). The stream counts as
  /// opened (its telemetry) from here.
  std::string begin_response();
  /// The channel (numbered `number` by `owner`) is the stream's from now
  /// on; it is watched for the client going away. `connection_events`: its
  /// connection's telemetry, closed with it (null: an exchange has none).
  void adopt(std::unique_ptr<response_channel> io, std::shared_ptr<listen_stream_owner> owner, std::uint64_t number,
             const connection_telemetry* connection_events);
  /// The POST failed before adopt(): the listener's subscription ends.
  void abandon();
  /// A keep-alive comment when nothing was written since the last call.
  void keep_alive();
  /// The server ends the stream: `graceful`, with the listen request's
  /// closing result (spec: basic/patterns/subscriptions, "Graceful Closure").
  void close(bool graceful);

  // connection_link: where the listener's session sends (filtered and tagged before).
  asio::awaitable<void> send_notification(notification n, std::string related) override;
  void post_notification(notification n, std::string related) override;
  void post_broadcast(notification n) override;
  asio::awaitable<json::object> send_request(std::string method, json::object params,
                                             std::chrono::milliseconds timeout, std::string related) override;
  void close_stream(const std::string&) override {}

 private:
  std::shared_ptr<listen_stream> self() { return std::static_pointer_cast<listen_stream>(shared_from_this()); }
  // Queues one notification's event and writes what the channel takes.
  void send(const notification& n);
  void queue(std::string_view events);
  void flush();
  // Hands what is queued to the channel (with the end of the body, once it
  // has ended whole); true when it took everything at once.
  bool send_queued();
  // Writes what is left (a slow reader), then closes once the stream has ended.
  asio::awaitable<void> write_rest(std::shared_ptr<listen_stream> keep);
  // The subscription ends: `whole`, the body ends after what is queued and
  // `last_event` (else the client is gone, or the stream is cut off).
  void end(bool whole, std::string_view last_event = {});
  asio::awaitable<void> close_connection();

  asio::any_io_executor strand_;
  server_behaviour& behaviour_;
  std::size_t max_queued_bytes_;
  request_id id_;
  std::shared_ptr<session> listener_;  // until the stream ends (the session's link leads back here)
  std::string out_;                    // events the channel has not taken
  std::unique_ptr<response_channel> io_;  // once adopted
  std::shared_ptr<listen_stream_owner> owner_;
  std::uint64_t number_ = 0;
  std::optional<connection_telemetry> connection_events_;
  std::optional<stream_telemetry> stream_events_;
  std::uint64_t events_sent_ = 0;
  bool writing_ = false;  // write_rest() runs
  bool wrote_ = false;    // since the last keep_alive()
  bool ended_ = false;
  bool ends_whole_ = false;  // ended, and the end of the body is still to send
};

/// The listen_host of one POST served alone: makes its stream, if it is a listen.
class listen_taker final : public listen_host {
 public:
  listen_taker(const asio::any_io_executor& strand, server_behaviour& behaviour, std::size_t max_queued_bytes)
      : strand_(strand), behaviour_(behaviour), max_queued_bytes_(max_queued_bytes) {}
  std::shared_ptr<connection_link> hold_listen(const request_id& id, std::string acknowledgement,
                                               std::shared_ptr<session> listener) override;
  /// The stream made, if any.
  std::shared_ptr<listen_stream> taken;

 private:
  const asio::any_io_executor& strand_;
  server_behaviour& behaviour_;
  std::size_t max_queued_bytes_;
};

}  // namespace mcp::detail
